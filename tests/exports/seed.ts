import { randomUUID } from "node:crypto";
import yauzl from "yauzl";
import { expectSuccess } from "../api/expect";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { cameraJpeg, png } from "../images/fixtures";

/** An account with something of everything an export carries (docs/migrating.md, Export). */
export interface SeededAccount {
  account: TestAccount;
  cover: { id: string; url: string; fileName: string };
  inline: { id: string; url: string; fileName: string };
  blogs: { published: string; scheduled: string; draft: string };
}

const json = (body: unknown) => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function upload(account: TestAccount, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const { image } = expectSuccess(await call("/images", { key: account.key, method: "POST", body: form as never }), 201);
  return { id: image.id as string, url: image.url as string, fileName: image.fileName as string };
}

const createBlog = async (account: TestAccount, blog: Record<string, unknown>) =>
  expectSuccess(await call("/blogs", { key: account.key, method: "POST", ...json(blog) }), 201).blog.id as string;

/** Markdown the export must carry unchanged: a table, code, a footnote, an image of ours given by its absolute URL and one by its path. */
export const richMarkdown = (inlineUrl: string, inlinePath = new URL(inlineUrl).pathname) =>
  [
    "Intro with **bold** and a [link](https://example.com/).",
    "",
    `![A camera picture](${inlineUrl})`,
    "",
    `![The same, by its path](${inlinePath})`,
    "",
    "| Name | Value |",
    "| ---- | ----- |",
    "| a    | 1     |",
    "",
    "```ts",
    "const x = 1;",
    "```",
    "",
    "A claim.[^1]",
    "",
    "[^1]: Its source.",
  ].join("\n");

export async function seedAccount(): Promise<SeededAccount> {
  const account = await createTestAccount();
  const cover = await upload(account, await png(), "Cover photo (final).png", "image/png");
  const inline = await upload(account, await cameraJpeg(), "inline.jpg", "image/jpeg");
  const published = await createBlog(account, {
    title: "Hello, world",
    blogSlug: "hello-world",
    description: "The first post",
    content: richMarkdown(inline.url),
    tags: ["Next.js", "Écriture", "notes"],
    coverImage: cover.id,
    seoTitle: "Hello (SEO)",
    seoDescription: "What search engines show",
    isPublic: true,
  });
  const scheduled = await createBlog(account, {
    title: "Coming soon",
    blogSlug: "coming-soon",
    content: "Later.",
    tags: ["notes"],
    publishAt: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
  });
  const draft = await createBlog(account, { title: "Half written", blogSlug: "half-written", content: "Draft *text*." });
  await db().subscriber.createMany({
    data: [
      { userId: account.id, email: "ada@example.com", name: "Ada Lovelace", status: "active", source: "form", unsubscribeToken: randomUUID() },
      // A name a spreadsheet would run as a formula.
      { userId: account.id, email: "mallory@example.com", name: '=HYPERLINK("https://evil.example","x")', status: "active", source: "api", unsubscribeToken: randomUUID() },
    ],
  });
  return { account, cover, inline, blogs: { published, scheduled, draft } };
}

/** Every entry of a zip, by name. */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on("entry", (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on("end", () => resolve(entries));
      file.on("error", reject);
      file.readEntry();
    });
  });
}
