import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, type TestAccount } from "../support/api";
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_ENTRY_BYTES } from "~/shared/imports";
import { zipOf } from "./sources";
import { postImport, untilFinished } from "./support";

/**
 * Hostile files sent to POST /api/v1/imports (docs/migrating.md, Hostile files): each is refused,
 * at the upload (400) or by its import ending failed, with a message saying why; nothing is
 * created; and the suite's server answers as before, its memory where it was.
 */

const ZEROS = Buffer.alloc(4 * 1024 * 1024);

/** The zip with `name`'s uncompressed size in its central directory (what yauzl reads) set to `size`. */
function withClaimedSize(zip: Buffer, name: string, size: number): Buffer {
  const patched = Buffer.from(zip);
  const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = patched.indexOf(CENTRAL_HEADER); at !== -1; at = patched.indexOf(CENTRAL_HEADER, at + 4)) {
    const nameLength = patched.readUInt16LE(at + 28);
    if (patched.toString("latin1", at + 46, at + 46 + nameLength) === name) {
      patched.writeUInt32LE(size, at + 24);
      return patched;
    }
  }
  throw new Error(`no ${name} in the zip's directory`);
}

/** The resident memory of the process listening on the suite's server port, from /proc (Linux). */
function serverRssBytes(): number {
  const port = Number(new URL(apiBaseUrl()).port).toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${port}`) && fields[3] === "0A") inodes.add(fields[9]!);
    }
  }
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = "";
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
    }
  }
  throw new Error("the suite's server process was not found");
}

/** The file refused: 400 at upload with a message matching, or its import failed with one; nothing created either way. */
async function expectRefused(account: TestAccount, file: Buffer, message: RegExp, name = "export.zip"): Promise<void> {
  const created = await postImport(account.key, file, { name });
  if (created.status === 400) {
    expect(created.json).toMatchObject({ error: { code: "INVALID_PARAMETER", details: expect.stringMatching(message) } });
    expect(await db().import.count({ where: { userId: account.id } })).toBe(0);
  } else {
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const done = await untilFinished(account.key, (created.json as { data: { import: { id: string } } }).data.import.id);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(message);
    expect(done.report.imported).toBe(0);
  }
  expect(await db().blog.count({ where: { userId: account.id } })).toBe(0);
  expect(await db().image.count({ where: { userId: account.id } })).toBe(0);
  expect(await db().importChunk.count({ where: { import: { userId: account.id } } })).toBe(0);
  // The server answers as before.
  const blogs = await call("/blogs", { key: account.key });
  expect(blogs.status).toBe(200);
}

describe("hostile archives and files", () => {
  it("a zip bomb: an entry claiming more than the bound, one lying about its size, one inflating too much", async () => {
    const account = await createTestAccount();
    const rssBefore = serverRssBytes();
    const zeros = await zipOf({ "posts/a.md": ZEROS, "posts/b.md": "# B\n" });
    await expectRefused(account, withClaimedSize(zeros, "posts/a.md", MAX_ARCHIVE_ENTRY_BYTES + 1), /inflates to more than 200 MB/);
    // Claiming 100 MB from 4 KB: no real file compresses that much.
    await expectRefused(account, withClaimedSize(zeros, "posts/a.md", 100 * 1024 * 1024), /compressed too much/);
    // Claiming less than it inflates to: stopped as it streams.
    await expectRefused(account, withClaimedSize(zeros, "posts/a.md", 1000), /posts\/a\.md.*(too many bytes|cannot be read)/);
    expect(serverRssBytes() - rssBefore).toBeLessThan(128 * 1024 * 1024);
  });

  it(`a zip of more than ${MAX_ARCHIVE_ENTRIES} entries`, async () => {
    const account = await createTestAccount();
    const entries = Object.fromEntries(Array.from({ length: MAX_ARCHIVE_ENTRIES + 1 }, (_, index) => [`posts/${index}.md`, "x"]));
    await expectRefused(account, await zipOf(entries), new RegExp(`${MAX_ARCHIVE_ENTRIES + 1} entries; at most ${MAX_ARCHIVE_ENTRIES}`));
  });

  it("entries escaping the archive: ../../x.md and an absolute path", async () => {
    const account = await createTestAccount();
    // yazl refuses such names: they are written into the zip's bytes (same length, in both headers).
    const zip = (await zipOf({ "aaaaa/x.md": "# X\n", "posts/y.md": "# Y\n" })).toString("latin1");
    await expectRefused(account, Buffer.from(zip.replaceAll("aaaaa/x.md", "../../x.md"), "latin1"), /escape|relative path/);
    await expectRefused(account, Buffer.from(zip.replaceAll("aaaaa/x.md", "/etc/x.md0"), "latin1"), /escape|absolute path/);
  });

  it("a billion-laughs WordPress export, bare and zipped", async () => {
    const account = await createTestAccount();
    const rssBefore = serverRssBytes();
    const entities = Array.from({ length: 9 }, (_, index) => `<!ENTITY lol${index + 1} "${`&lol${index};`.repeat(10)}">`).join("\n");
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE rss [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&lol9;</title></channel></rss>\n`;
    await expectRefused(account, Buffer.from(xml), /declares a DTD/, "export.xml");
    await expectRefused(account, await zipOf({ "export.xml": xml }), /declares a DTD/);
    expect(serverRssBytes() - rssBefore).toBeLessThan(128 * 1024 * 1024);
  });
});
