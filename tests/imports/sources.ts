import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import sharp from "sharp";
import { type ZipEntries } from "../support/zip";
import { openArchive } from "~/server/imports/archive";

/**
 * The real exports the import tests read (tests/fixtures/imports/README.md), as each platform's zip
 * lays them out, and their items counted here with plain means (regular expressions, JSON.parse,
 * a CSV parser), never with the readers under test. Pure: the readers' unit tests use it too.
 */

export const FIXTURES = "tests/fixtures/imports";
export const THEME_UNIT_TEST_DATA = join(FIXTURES, "themeunittestdata.wordpress.xml.zip");

/** The theme unit test data's XML, taken out of its zip. */
export async function themeUnitTestXml(): Promise<string> {
  const archive = await openArchive(THEME_UNIT_TEST_DATA);
  try {
    return (await archive.read("themeunittestdata.wordpress.xml"))?.toString("utf8") ?? "";
  } finally {
    archive.close();
  }
}

/** A WXR's item as the XML has it. */
export interface RawWxrItem {
  id: string;
  type: string;
  status: string;
  slug: string;
  link: string;
  password: string;
  dateGmt: string;
  comments: number;
  terms: string[];
}

/** A WXR's items, read with regular expressions (not the reader's parser). */
export function rawWxrItems(xml: string): RawWxrItem[] {
  const field = (item: string, name: string) => new RegExp(`<wp:${name}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</wp:${name}>`).exec(item)?.[1] ?? "";
  return xml
    .split("<item>")
    .slice(1)
    .map((chunk) => {
      const item = chunk.slice(0, chunk.indexOf("</item>"));
      return {
        id: field(item, "post_id"),
        type: field(item, "post_type"),
        status: field(item, "status"),
        slug: field(item, "post_name"),
        link: /<link>([\s\S]*?)<\/link>/.exec(item)?.[1] ?? "",
        password: field(item, "post_password"),
        dateGmt: field(item, "post_date_gmt"),
        comments: item.split("<wp:comment>").length - 1,
        terms: [...item.matchAll(/<category domain="(?:category|post_tag)"[^>]*>(?:<!\[CDATA\[)?([\s\S]*?)(?:\]\]>)?<\/category>/g)].map((match) => match[1] ?? ""),
      };
    });
}

export { zipOf, type ZipEntries } from "../support/zip";

/** Substack's export zip (posts.csv, posts/<post_id>.html, email_list.<name>.csv), under `root`. */
export async function substackEntries(root = ""): Promise<ZipEntries> {
  const dir = join(FIXTURES, "substack");
  const entries: ZipEntries = [
    [`${root}posts.csv`, await readFile(join(dir, "posts.csv"))],
    [`${root}email_list.harbour.csv`, await readFile(join(dir, "email_list.harbour.csv"))],
  ];
  for (const name of await readdir(join(dir, "posts"))) entries.push([`${root}posts/${name}`, await readFile(join(dir, "posts", name))]);
  return entries;
}

type CsvRow = Record<string, string>;

/** The Substack export's posts.csv and email list, as rows. */
export async function substackRows(): Promise<{ posts: CsvRow[]; emails: CsvRow[] }> {
  const rows = async (name: string) => parse(await readFile(join(FIXTURES, "substack", name)), { columns: true }) as CsvRow[];
  return { posts: await rows("posts.csv"), emails: await rows("email_list.harbour.csv") };
}

export const GHOST_V5 = join(FIXTURES, "ghost", "v5-lexical-export.json");

/** The images the Ghost 5 export's posts use, as real files (a JPEG and a PNG). */
export async function ghostImages(): Promise<{ jpeg: Buffer; png: Buffer }> {
  const jpeg = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#246" } }).jpeg().toBuffer();
  const png = await sharp({ create: { width: 4, height: 4, channels: 4, background: "#fa0" } }).png().toBuffer();
  return { jpeg, png };
}

/** Ghost 5's export zip: its JSON and content/images, under the site's folder as Ghost writes it. */
export async function ghostV5Entries(): Promise<ZipEntries> {
  const { jpeg, png } = await ghostImages();
  return [
    ["harbour-site/harbour.ghost.2024-01-11.json", await readFile(GHOST_V5)],
    ["harbour-site/content/images/2024/01/harbour.jpg", jpeg],
    ["harbour-site/content/images/2024/01/boats.png", png],
  ];
}

/** A Ghost export's post rows. */
export async function ghostRows(path: string): Promise<{ id: string; slug: string; type: string; status: string }[]> {
  return (JSON.parse(await readFile(path, "utf8")) as { db: [{ data: { posts: { id: string; slug: string; type: string; status: string }[] } }] }).db[0].data.posts;
}
