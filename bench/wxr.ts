/**
 * WordPress exports (WXR) written for the benchmark and the tests (docs/migrating.md): the XML
 * WordPress's Tools → Export writes, built item by item, and a realistic site of N posts (about
 * 5 KB each: paragraphs, headings, a captioned image, a code block, categories and tags, a few
 * comments) streamed to disk, so that a 200 MB file costs no more memory to write than to read.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";

export const WXR_SITE = "https://old-blog.example";

/** The XML text of a value, in a CDATA section as WordPress writes it (a "]]>" inside split across two). */
const cdata = (text: string) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

export function wxrHead(site = WXR_SITE, title = "An Old Blog"): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>${cdata(title)}</title>
<link>${site}</link>
<description>Just another WordPress site</description>
<language>en-US</language>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>${site}</wp:base_site_url>
<wp:base_blog_url>${site}</wp:base_blog_url>
`;
}

export const WXR_TAIL = "</channel>\n</rss>\n";

export interface WxrItemFields {
  id: number;
  title: string;
  content?: string;
  excerpt?: string;
  /** "post" unless said. */
  type?: string;
  /** "publish" unless said. */
  status?: string;
  slug?: string;
  /** "2019-05-01 09:30:00", GMT. */
  date?: string;
  link?: string;
  password?: string;
  parent?: number;
  attachmentUrl?: string;
  categories?: string[];
  tags?: string[];
  meta?: Record<string, string>;
  comments?: { id: number; author: string; content: string }[];
}

/** One <item> as WordPress exports it. */
export function wxrItem(fields: WxrItemFields): string {
  const date = fields.date ?? "2019-05-01 09:30:00";
  const slug = fields.slug ?? `post-${fields.id}`;
  const terms = [
    ...(fields.categories ?? []).map((name) => `<category domain="category" nicename="${encodeURIComponent(name.toLowerCase())}">${cdata(name)}</category>`),
    ...(fields.tags ?? []).map((name) => `<category domain="post_tag" nicename="${encodeURIComponent(name.toLowerCase())}">${cdata(name)}</category>`),
  ];
  const meta = Object.entries(fields.meta ?? {}).map(([key, value]) => `<wp:postmeta><wp:meta_key>${cdata(key)}</wp:meta_key><wp:meta_value>${cdata(value)}</wp:meta_value></wp:postmeta>`);
  const comments = (fields.comments ?? []).map(
    (comment) =>
      `<wp:comment><wp:comment_id>${comment.id}</wp:comment_id><wp:comment_author>${cdata(comment.author)}</wp:comment_author><wp:comment_date_gmt>${date}</wp:comment_date_gmt><wp:comment_content>${cdata(comment.content)}</wp:comment_content><wp:comment_approved>${cdata("1")}</wp:comment_approved><wp:comment_type>${cdata("comment")}</wp:comment_type></wp:comment>`,
  );
  return `<item>
<title>${cdata(fields.title)}</title>
<link>${fields.link ?? `${WXR_SITE}/${date.slice(0, 4)}/${date.slice(5, 7)}/${slug}/`}</link>
<pubDate>Wed, 01 May 2019 09:30:00 +0000</pubDate>
<dc:creator>${cdata("admin")}</dc:creator>
<guid isPermaLink="false">${WXR_SITE}/?p=${fields.id}</guid>
<description></description>
<content:encoded>${cdata(fields.content ?? "")}</content:encoded>
<excerpt:encoded>${cdata(fields.excerpt ?? "")}</excerpt:encoded>
<wp:post_id>${fields.id}</wp:post_id>
<wp:post_date>${cdata(date)}</wp:post_date>
<wp:post_date_gmt>${cdata(date)}</wp:post_date_gmt>
<wp:post_modified_gmt>${cdata(date)}</wp:post_modified_gmt>
<wp:comment_status>${cdata("open")}</wp:comment_status>
<wp:post_name>${cdata(slug)}</wp:post_name>
<wp:status>${cdata(fields.status ?? "publish")}</wp:status>
<wp:post_parent>${fields.parent ?? 0}</wp:post_parent>
<wp:menu_order>0</wp:menu_order>
<wp:post_type>${cdata(fields.type ?? "post")}</wp:post_type>
<wp:post_password>${cdata(fields.password ?? "")}</wp:post_password>
<wp:is_sticky>0</wp:is_sticky>
${fields.attachmentUrl ? `<wp:attachment_url>${cdata(fields.attachmentUrl)}</wp:attachment_url>\n` : ""}${[...terms, ...meta, ...comments].join("\n")}
</item>
`;
}

export function wxrDocument(items: WxrItemFields[]): string {
  return wxrHead() + items.map(wxrItem).join("") + WXR_TAIL;
}

const PARAGRAPH =
  "Moving a blog is mostly moving its words, but the words come with habits: a caption under every photo, a snippet of code in the middle of an explanation, a tag for every topic the post touched. A good import keeps all of them, and says plainly what it could not keep.";

/** A classic-editor post of about 5 KB, without <p> (WordPress adds them at display time). */
function samplePostContent(id: number, imageId: number, site: string): string {
  const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `${PARAGRAPH} (${id}.${index})`).join("\n\n");
  return [
    paragraphs(3),
    `<h2>What changed in part ${id}</h2>`,
    paragraphs(3),
    `[caption id="attachment_${imageId}" align="aligncenter" width="640"]<img class="size-large wp-image-${imageId}" src="${site}/wp-content/uploads/2019/05/photo-${imageId}.jpg" alt="Photo ${imageId}" width="640" height="427" /> The harbour at dawn, photo ${imageId}[/caption]`,
    paragraphs(2),
    `<pre class="wp-block-code"><code class="language-js">export function total(items) {\n  return items.reduce((sum, item) =&gt; sum + item.price * item.quantity, 0);\n}</code></pre>`,
    `<h3>Notes</h3>\nOne line\nand the next, joined by a line break.`,
    paragraphs(6),
  ].join("\n\n");
}

/**
 * Writes a WXR of `posts` posts (and one image attachment per ten posts, which their captions and
 * featured images use) to `path`, item by item, waiting for the disk when its buffer is full.
 */
export async function writeSampleWxr(path: string, posts: number, site = WXR_SITE): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(wxrHead(site));
  for (let index = 0; index < posts; index++) {
    const id = index * 2 + 100;
    const imageId = Math.floor(index / 10) * 2 + 1;
    if (index % 10 === 0) {
      await write(wxrItem({ id: imageId, title: `Photo ${imageId}`, type: "attachment", status: "inherit", slug: `photo-${imageId}`, attachmentUrl: `${site}/wp-content/uploads/2019/05/photo-${imageId}.jpg` }));
    }
    const day = String((index % 28) + 1).padStart(2, "0");
    await write(
      wxrItem({
        id,
        title: `Notes from the harbour, part ${index + 1}`,
        slug: `notes-from-the-harbour-part-${index + 1}`,
        date: `2019-05-${day} 09:30:00`,
        content: samplePostContent(id, imageId, site),
        excerpt: `Part ${index + 1} of the harbour notes.`,
        categories: ["Travel"],
        tags: ["harbour", `series-${index % 7}`],
        meta: { _thumbnail_id: String(imageId) },
        comments: index % 5 === 0 ? [{ id: index + 1, author: "A reader", content: "Lovely photos." }] : [],
      }),
    );
  }
  await write(WXR_TAIL);
  out.end();
  await once(out, "finish");
}
