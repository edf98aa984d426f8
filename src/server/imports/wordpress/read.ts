import "server-only";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { posix } from "node:path";
import type { Readable } from "node:stream";
import { isZip, openArchive } from "../archive";
import { ImportFileError, type ImportSource } from "../source";
import type { Attachment } from "./content";
import { mapWxrItem, plainText, type WordPressSite } from "./map-item";
import { readWxr, type WxrChannel } from "./wxr-stream";

/**
 * Opens a WordPress export (docs/migrating.md, WordPress): a WXR file, or a zip holding one. The
 * file is read twice, never whole: a first pass checks it (well-formed, no DTD, a WXR), counts its
 * items and comments (the progress bar's end) and notes each attachment's URL (a few bytes per
 * file); `items()` then reads it again, mapping each item as it comes, so that a featured image or
 * a gallery finds its attachment wherever it stands in the file.
 */
export async function openWordPressExport(path: string): Promise<ImportSource> {
  const file = await openExportFile(path);
  try {
    let channel: WxrChannel = { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "" };
    let total = 0;
    const attachments = new Map<string, Attachment>();
    for await (const event of readWxr(await file.stream())) {
      if (event.kind === "channel") {
        channel = event.channel;
        continue;
      }
      const { item } = event;
      total += 1 + item.comments.length;
      if (item.postType.trim() === "attachment" && item.attachmentUrl.trim()) {
        attachments.set(copied(item.postId.trim()), {
          url: copied(item.attachmentUrl.trim()),
          title: copied(plainText(item.title)),
          alt: copied(plainText(item.meta.get("_wp_attachment_image_alt") ?? "")),
          parent: copied(item.postParent.trim()),
        });
      }
    }
    // The blog's own address (base_blog_url): WordPress.com gives every site the same base_site_url.
    const siteUrl = channel.baseBlogUrl || channel.link || channel.baseSiteUrl || null;
    const site: WordPressSite = { key: (siteUrl ?? "").replace(/\/+$/, ""), title: plainText(channel.title), attachments };
    return {
      format: "wordpress",
      total,
      siteUrl,
      async *items() {
        for await (const event of readWxr(await file.stream())) {
          if (event.kind === "item") yield* mapWxrItem(event.item, site);
        }
      },
      // A WXR carries no files: the importer fetches the images its posts use from their URLs.
      asset: async () => null,
      close: async () => file.close(),
    };
  } catch (error) {
    file.close();
    throw error;
  }
}

/**
 * A copy of the text that holds nothing else: the parser's strings may be slices of the whole chunk
 * they were read from (64 KB), which a kept slice would keep alive, once per attachment.
 */
const copied = (text: string) => Buffer.from(text, "utf8").toString("utf8");

/** The export's XML as a stream, as often as asked: the file itself, or the one .xml file of a zip. */
async function openExportFile(path: string): Promise<{ stream(): Promise<Readable>; close(): void }> {
  const head = Buffer.alloc(4);
  const handle = await open(path, "r");
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (!isZip(head)) return { stream: async () => createReadStream(path), close: () => undefined };
  const archive = await openArchive(path);
  const exports = archive.names.filter((name) => name.toLowerCase().endsWith(".xml") && !name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX"));
  if (exports.length !== 1) {
    archive.close();
    throw new ImportFileError(
      exports.length === 0
        ? "the zip holds no .xml file: a WordPress export is the .xml file of Tools → Export"
        : `the zip holds ${exports.length} .xml files (${exports.slice(0, 3).map((name) => posix.basename(name)).join(", ")}${exports.length > 3 ? ", …" : ""}): import them one at a time`,
    );
  }
  const [name] = exports as [string];
  return { stream: () => archive.stream(name), close: () => archive.close() };
}
