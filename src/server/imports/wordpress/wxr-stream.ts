import "server-only";
import type { Readable } from "node:stream";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { ImportFileError } from "../source";

/**
 * A WordPress export (WXR: RSS 2.0 with WordPress's namespaces) read as a stream of its items, one
 * item in memory at a time (docs/migrating.md, Hostile files): a 200 MB export is never held whole.
 * The XML may declare no DTD and use no entity but XML's five and numeric references; a DOCTYPE is
 * refused as soon as it is seen, before anything it declares could be expanded (billion laughs,
 * external entities).
 */

/** The channel's own fields, as far as the file gives them before its first item. */
export interface WxrChannel {
  title: string;
  link: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
}

export interface WxrComment {
  id: string;
  author: string;
}

/** One <item>, the fields the reader uses, as written (entities decoded). */
export interface WxrItem {
  title: string;
  link: string;
  content: string;
  excerpt: string;
  postId: string;
  postDate: string;
  postDateGmt: string;
  postModifiedGmt: string;
  postName: string;
  status: string;
  postParent: string;
  menuOrder: string;
  postType: string;
  postPassword: string;
  attachmentUrl: string;
  /** category and post_tag terms, in the file's order. */
  terms: { domain: string; name: string }[];
  /** Only the keys of WANTED_META (a page builder's meta may weigh megabytes). */
  meta: Map<string, string>;
  comments: WxrComment[];
  /** Fields cut at MAX_FIELD_CHARS. */
  oversized: string[];
}

export type WxrEvent = { kind: "channel"; channel: WxrChannel } | { kind: "item"; item: WxrItem };

/** Post meta the mapping reads (src/server/imports/wordpress/map-item.ts). */
export const WANTED_META = new Set(["_thumbnail_id", "_yoast_wpseo_title", "_yoast_wpseo_metadesc", "footnotes", "_wp_attachment_image_alt"]);

/** A field longer than this is cut (a post's content is at most 500,000 characters here anyway). */
export const MAX_FIELD_CHARS = 1_000_000;

const WP_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/1\.\d+\/$/;
const EXCERPT_NAMESPACE = /^https?:\/\/wordpress\.org\/export\/1\.\d+\/excerpt\/$/;
const CONTENT_NAMESPACE = "http://purl.org/rss/1.0/modules/content/";

/** Item children read as plain fields, by namespace-qualified name. */
const ITEM_FIELDS = {
  title: "title",
  link: "link",
  "content:encoded": "content",
  "excerpt:encoded": "excerpt",
  "wp:post_id": "postId",
  "wp:post_date": "postDate",
  "wp:post_date_gmt": "postDateGmt",
  "wp:post_modified_gmt": "postModifiedGmt",
  "wp:post_name": "postName",
  "wp:status": "status",
  "wp:post_parent": "postParent",
  "wp:menu_order": "menuOrder",
  "wp:post_type": "postType",
  "wp:post_password": "postPassword",
  "wp:attachment_url": "attachmentUrl",
} as const satisfies Record<string, keyof WxrItem>;
type ItemField = (typeof ITEM_FIELDS)[keyof typeof ITEM_FIELDS];

const CHANNEL_FIELDS = { title: "title", link: "link", "wp:base_site_url": "baseSiteUrl", "wp:base_blog_url": "baseBlogUrl" } as const satisfies Record<string, keyof WxrChannel>;

/** Control characters XML forbids, which WordPress lets into exports (pasted text): dropped, not fatal. */
const FORBIDDEN_CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** The element's name with the prefix WordPress uses for its namespace, whatever prefix the file chose. */
function qualifiedName(tag: SaxesTagNS): string {
  if (!tag.uri) return tag.local;
  if (WP_NAMESPACE.test(tag.uri)) return `wp:${tag.local}`;
  if (EXCERPT_NAMESPACE.test(tag.uri)) return `excerpt:${tag.local}`;
  if (tag.uri === CONTENT_NAMESPACE) return `content:${tag.local}`;
  return `{${tag.uri}}${tag.local}`;
}

const emptyItem = (): WxrItem => ({
  title: "",
  link: "",
  content: "",
  excerpt: "",
  postId: "",
  postDate: "",
  postDateGmt: "",
  postModifiedGmt: "",
  postName: "",
  status: "",
  postParent: "",
  menuOrder: "",
  postType: "",
  postPassword: "",
  attachmentUrl: "",
  terms: [],
  meta: new Map(),
  comments: [],
  oversized: [],
});

/** Reads the export: the channel (once, before the first item) and every item, in the file's order. */
export async function* readWxr(stream: Readable): AsyncGenerator<WxrEvent> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const ready: WxrEvent[] = [];
  const refuse = (message: string): never => {
    throw new ImportFileError(`not a readable WordPress export: ${message} (line ${parser.line}, column ${parser.column})`);
  };
  const refuseDoctype = (): never => {
    throw new ImportFileError("the WordPress export declares a DTD (<!DOCTYPE>); exports with DTDs or custom entities are refused (a hostile file?)");
  };

  const channel: WxrChannel = { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "" };
  let channelSent = false;
  let sawRoot = false;
  let sawChannel = false;
  /** Names of the open elements, from the root. */
  const path: string[] = [];
  let item: WxrItem | null = null;
  /** Where text goes: a setter for the field being read, or null when the text is not wanted. */
  let sink: ((text: string) => void) | null = null;
  let text = "";
  let metaKey = "";
  let comment: WxrComment | null = null;

  const append = (chunk: string) => {
    if (sink) text += chunk;
  };

  parser.on("doctype", refuseDoctype);
  parser.on("error", (error) => refuse(error.message.replace(/^\d+:\d+: /, "")));
  parser.on("text", append);
  parser.on("cdata", append);
  parser.on("opentag", (tag) => {
    const name = qualifiedName(tag);
    if (!sawRoot) {
      sawRoot = true;
      if (name !== "rss") refuse(`its root element is <${tag.name}>, not <rss>`);
      if (!Object.values(tag.ns ?? {}).some((uri) => WP_NAMESPACE.test(uri))) refuse("it does not declare WordPress's export namespace (wordpress.org/export/1.x)");
    }
    path.push(name);
    const depth = path.length;
    sink = null;
    text = "";
    if (depth === 2 && name === "channel") sawChannel = true;
    if (depth === 3 && path[1] === "channel") {
      if (name === "item") {
        if (!channelSent) {
          channelSent = true;
          ready.push({ kind: "channel", channel: { ...channel } });
        }
        item = emptyItem();
      } else if (name in CHANNEL_FIELDS) {
        const field = CHANNEL_FIELDS[name as keyof typeof CHANNEL_FIELDS];
        sink = () => (channel[field] = text.trim());
      }
      return;
    }
    if (!item || depth < 4) return;
    const current = item;
    const parent = path[depth - 2];
    if (depth === 4) {
      if (name in ITEM_FIELDS) {
        const field: ItemField = ITEM_FIELDS[name as keyof typeof ITEM_FIELDS];
        sink = () => (current[field] = cut(current, field, text));
      } else if (name === "category") {
        const domain = tag.attributes.domain?.value ?? "";
        if (domain === "category" || domain === "post_tag") sink = () => current.terms.push({ domain, name: text.trim() });
      } else if (name === "wp:comment") {
        comment = { id: "", author: "" };
      } else if (name === "wp:postmeta") {
        metaKey = "";
      }
    } else if (depth === 5 && parent === "wp:postmeta") {
      if (name === "wp:meta_key") sink = () => (metaKey = text.trim());
      else if (name === "wp:meta_value" && WANTED_META.has(metaKey)) {
        const key = metaKey;
        sink = () => current.meta.set(key, cut(current, key, text));
      }
    } else if (depth === 5 && parent === "wp:comment" && comment) {
      const into = comment;
      if (name === "wp:comment_id") sink = () => (into.id = text.trim());
      else if (name === "wp:comment_author") sink = () => (into.author = cut(current, "comment_author", text.trim()));
    }
  });
  parser.on("closetag", () => {
    const name = path.pop();
    const depth = path.length + 1;
    sink?.(text);
    sink = null;
    text = "";
    if (!item) return;
    if (depth === 3 && name === "item") {
      ready.push({ kind: "item", item });
      item = null;
    } else if (depth === 4 && name === "wp:comment" && comment) {
      item.comments.push(comment);
      comment = null;
    }
  });

  const decoder = new TextDecoder("utf-8");
  /** The end of the previous chunk, so that a DOCTYPE split across two chunks is still seen. */
  let carry = "";
  try {
    for await (const chunk of stream) {
      const decoded = decoder.decode(chunk as Buffer, { stream: true }).replace(FORBIDDEN_CONTROL_CHARACTERS, "");
      if (!sawRoot) {
        // Before the root element, refuse a DOCTYPE on sight rather than after saxes has read it
        // whole (it may be megabytes of declarations).
        const head = carry + decoded;
        const rootAt = head.search(/<rss[\s>]/);
        if (/<!DOCTYPE|<!ENTITY/i.test(rootAt < 0 ? head : head.slice(0, rootAt))) refuseDoctype();
        carry = head.slice(-16);
      }
      parser.write(decoded);
      yield* ready.splice(0);
    }
    parser.write(decoder.decode().replace(FORBIDDEN_CONTROL_CHARACTERS, ""));
    if (!sawRoot) refuse("the file has no XML element");
    parser.close();
    if (!sawChannel) refuse("it has no <channel>");
    if (!channelSent) ready.push({ kind: "channel", channel: { ...channel } });
    yield* ready.splice(0);
  } finally {
    stream.destroy();
  }
}

/** The text, cut at MAX_FIELD_CHARS and the cut noted on the item. */
function cut(item: WxrItem, field: string, text: string): string {
  if (text.length <= MAX_FIELD_CHARS) return text;
  item.oversized.push(field);
  return text.slice(0, MAX_FIELD_CHARS);
}
