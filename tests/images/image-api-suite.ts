import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { expectError, expectSuccess } from "../api/expect";
import * as fixtures from "./fixtures";

/**
 * What must hold of /api/v1/images and the served files on any image store (docs/images.md): run
 * on the default PostgreSQL store by images-postgres.test.ts and on an S3 server by images-s3.test.ts.
 * `server()` is the base URL of the server under test; `storedFiles(id)` what its store holds of an image.
 */
export function imageApiSuite(server: () => string, storedFiles: (imageId: string) => Promise<string[]>): void {
  const upload = (account: TestAccount, body: Buffer | FormData, headers: Record<string, string> = {}) =>
    call("/images", { key: account.key, method: "POST", body: body as never, headers, baseUrl: server() });
  const multipart = (bytes: Buffer, name: string, type: string, field = "file") => {
    const form = new FormData();
    form.set(field, new Blob([new Uint8Array(bytes)], { type }), name);
    return form;
  };
  const fetchFile = (url: string, headers: Record<string, string> = {}) => fetch(new URL(new URL(url).pathname, server()), { headers });
  const imagesOf = (accountId: string) => db().image.count({ where: { userId: accountId } });
  const getImage = async (account: TestAccount, id: string) => expectSuccess(await call(`/images/${id}`, { key: account.key, baseUrl: server() })).image;
  const createBlog = async (account: TestAccount, blog: Record<string, unknown>) =>
    expectSuccess(await call("/blogs", { key: account.key, method: "POST", baseUrl: server(), headers: { "content-type": "application/json" }, body: JSON.stringify(blog) }), 201).blog;
  const deleteImage = (account: TestAccount, id: string, query = "") => call(`/images/${id}${query}`, { key: account.key, method: "DELETE", baseUrl: server() });
  const publicPage = async (account: TestAccount, blogSlug: string) => {
    const { handle } = await db().user.findUniqueOrThrow({ where: { id: account.id } });
    return fetch(new URL(`/${handle}/${blogSlug}`, server()));
  };
  /** The image once its variants job has made the rest (docs/images.md, Processing). */
  const withEveryVariant = async (account: TestAccount, id: string) => {
    await expect.poll(async () => (await db().image.findUniqueOrThrow({ where: { id } })).variantsPending, { timeout: 60_000, interval: 200 }).toBe(false);
    return getImage(account, id);
  };
  const fileNames = (image: { url: string; variants: { url: string }[] }) => [image.url, ...image.variants.map((variant) => variant.url)].map((url) => url.split("/").pop()!);

  describe("accepted images round-trip", () => {
    const cases = [
      { name: "a camera JPEG (EXIF, GPS, orientation 6, ICC)", make: fixtures.cameraJpeg, type: "image/jpeg", width: 800, height: 1200, format: "jpeg" },
      { name: "a PNG", make: fixtures.png, type: "image/png", width: 640, height: 480, format: "png" },
      { name: "a WebP", make: fixtures.webp, type: "image/webp", width: 1000, height: 500, format: "webp" },
      { name: "an AVIF", make: fixtures.avif, type: "image/avif", width: 600, height: 400, format: "avif" },
      { name: "an animated GIF", make: fixtures.animatedGif, type: "image/gif", width: 500, height: 300, format: "gif" },
    ];
    for (const sample of cases) {
      it(`${sample.name}: stored clean, right size, every file served immutable`, async () => {
        const account = await createTestAccount();
        const bytes = await sample.make();
        const uploaded = expectSuccess(await upload(account, bytes, { "content-type": "application/octet-stream" }), 201).image;
        expect(uploaded).toMatchObject({ width: sample.width, height: sample.height, contentType: `image/${sample.format}` });
        expect(Object.keys(uploaded).sort()).toEqual(["bytes", "contentType", "createdAt", "fileName", "height", "id", "storedBytes", "url", "variants", "width"]);
        // Sent as the body, it has no name: its original's file's stands in.
        expect(uploaded.fileName).toBe(`${sample.width}x${sample.height}.${sample.format}`);
        const image = await withEveryVariant(account, uploaded.id);
        expect(new URL(image.url).pathname).toBe(`/images/${image.id}/${sample.width}x${sample.height}.${sample.format}`);

        const original = await fetchFile(image.url);
        expect(original.status).toBe(200);
        const stored = Buffer.from(await original.arrayBuffer());
        expect(stored.length).toBe(image.bytes);
        const metadata = await sharp(stored).metadata();
        expect({ width: metadata.width, height: metadata.pageHeight ?? metadata.height }).toEqual({ width: sample.width, height: sample.height });
        // Nothing of the camera's left: no EXIF (GPS is in it), XMP or ICC profile; orientation applied.
        expect({ exif: metadata.exif, xmp: metadata.xmp, icc: metadata.icc, orientation: metadata.orientation }).toEqual({ exif: undefined, xmp: undefined, icc: undefined, orientation: undefined });
        if (sample.format === "gif") expect(metadata.pages).toBe(2);

        for (const url of [image.url, ...image.variants.map((variant: { url: string }) => variant.url)]) {
          const served = await fetchFile(url);
          expect(served.status, url).toBe(200);
          expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
          expect(served.headers.get("x-content-type-options")).toBe("nosniff");
          expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
          expect(served.headers.get("etag")).toMatch(/^"[a-z0-9]+-[^"]+"$/);
          const format = (await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format;
          expect(served.headers.get("content-type")).toBe(`image/${format === "heif" ? "avif" : format}`);
          const revalidated = await fetchFile(url, { "if-none-match": served.headers.get("etag")! });
          expect(revalidated.status).toBe(304);
        }
        expect((await storedFiles(image.id)).sort()).toEqual([new URL(image.url).pathname, ...image.variants.map((v: { url: string }) => new URL(v.url).pathname)].map((p) => p.split("/").pop()).sort());
        const total = (await Promise.all([image.url, ...image.variants.map((v: { url: string }) => v.url)].map(async (url) => (await (await fetchFile(url)).arrayBuffer()).byteLength))).reduce((a, b) => a + b, 0);
        expect(image.storedBytes).toBe(total);
      });
    }

    it("answers with the original and its 480 px thumbnail; a job makes the other variants, in AVIF, WebP and its own format, never wider than the image", async () => {
      const account = await createTestAccount();
      const uploaded = expectSuccess(await upload(account, await fixtures.photoJpeg(2000, 1000), { "content-type": "image/jpeg" }), 201).image;
      expect(uploaded.variants.map((v: { url: string; width: number }) => `${v.width}:${v.url.split(".").pop()}`)).toEqual(["480:jpeg"]);
      expect((await storedFiles(uploaded.id)).sort()).toEqual(expect.arrayContaining(fileNames(uploaded)));
      const image = await withEveryVariant(account, uploaded.id);
      expect((await storedFiles(image.id)).sort()).toEqual(fileNames(image).sort());
      expect(image.storedBytes).toBeGreaterThan(uploaded.storedBytes);
      expect(image.variants.map((v: { url: string; width: number }) => `${v.width}:${v.url.split(".").pop()}`)).toEqual([
        ...[480, 664, 960, 1328, 1600].flatMap((width) => ["avif", "webp", "jpeg"].map((format) => `${width}:${format}`)),
      ]);
      const widest = await sharp(Buffer.from(await (await fetchFile(image.variants.at(-1).url)).arrayBuffer())).metadata();
      expect({ width: widest.width, height: widest.height }).toEqual({ width: 1600, height: 800 });
    });

    it("takes a multipart form's file part, whatever its name or declared type says, and keeps its name, cleaned", async () => {
      const account = await createTestAccount();
      const image = expectSuccess(await upload(account, multipart(await fixtures.png(), "holiday.jpg", "image/jpeg")), 201).image;
      expect(image.contentType).toBe("image/png");
      expect(image.fileName).toBe("holiday.jpg");
      const named = expectSuccess(await upload(account, multipart(await fixtures.webp(), "C:\\Users\\ann\\Été\u200b  2026\u202e.webp", "image/webp")), 201).image;
      expect(named.fileName).toBe("Été 2026.webp");
      expectError(await upload(account, multipart(await fixtures.png(), "a.png", "image/png", "picture")), 400, "MISSING_REQUIRED_FIELD");
    });
  });

  describe("refused uploads store nothing", () => {
    const refusals = [
      { name: "an SVG with a script", make: async () => fixtures.svgWithScript(), type: "image/svg+xml", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
      { name: "an HTML page named .png", make: async () => fixtures.htmlPage(), type: "image/png", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
      { name: "a PDF named .png", make: async () => fixtures.pdfFile(), type: "image/png", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
      { name: "a JPEG that is also HTML", make: fixtures.htmlJpegPolyglot, type: "image/jpeg", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
      { name: "a 20,000×20,000 PNG bomb", make: async () => fixtures.pngBomb(), type: "image/png", status: 400, code: "INVALID_PARAMETER" },
      { name: "a truncated JPEG", make: async () => (await fixtures.photoJpeg(800, 600)).subarray(0, 20_000), type: "image/jpeg", status: 400, code: "INVALID_PARAMETER" },
      { name: "11 MiB", make: async () => Buffer.alloc(11 * 1024 * 1024, 0xff), type: "image/jpeg", status: 413, code: "PAYLOAD_TOO_LARGE" },
      { name: "nothing", make: async () => Buffer.alloc(0), type: "image/jpeg", status: 400, code: "MISSING_REQUIRED_FIELD" },
    ];
    for (const refusal of refusals) {
      it(`${refusal.name}: ${refusal.status} ${refusal.code}`, async () => {
        const account = await createTestAccount();
        const bytes = await refusal.make();
        for (const body of [bytes, multipart(bytes, refusal.type === "image/png" ? "picture.png" : "file", refusal.type)]) {
          const error = expectError(await upload(account, body, body instanceof FormData ? {} : { "content-type": refusal.type }), refusal.status, refusal.code);
          expect(error.details).toBeTruthy();
        }
        expect(await imagesOf(account.id)).toBe(0);
      });
    }
  });

  it("another account's image is not found, read or deleted; its owner's list shows it", async () => {
    const [owner, intruder] = await Promise.all([createTestAccount(), createTestAccount()]);
    const image = await withEveryVariant(owner, expectSuccess(await upload(owner, await fixtures.png(), { "content-type": "image/png" }), 201).image.id);
    expectError(await call(`/images/${image.id}`, { key: intruder.key, baseUrl: server() }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call(`/images/${image.id}`, { key: intruder.key, method: "DELETE", baseUrl: server() }), 404, "RESOURCE_NOT_FOUND");
    expect(expectSuccess(await call("/images", { key: intruder.key, baseUrl: server() })).images).toEqual([]);
    expect(expectSuccess(await call(`/images/${image.id}`, { key: owner.key, baseUrl: server() })).image).toEqual(image);
    const list = expectSuccess(await call("/images?limit=5", { key: owner.key, baseUrl: server() }));
    expect(list).toEqual({ images: [image], pagination: { page: 1, limit: 5, total: 1, totalPages: 1, hasNext: false, hasPrev: false } });
  });

  describe("the same bytes uploaded again", () => {
    it("answer the image already stored: 200, the same image, nothing stored twice, whatever the form or name", async () => {
      const account = await createTestAccount();
      const bytes = await fixtures.png();
      const first = expectSuccess(await upload(account, bytes, { "content-type": "image/png" }), 201).image;
      // The variant job runs on its own clock: count the files once it has made them all.
      await withEveryVariant(account, first.id);
      const files = (await storedFiles(first.id)).sort();
      const again = await upload(account, bytes, { "content-type": "image/png" });
      expect(expectSuccess(again, 200).image.id).toBe(first.id);
      expect(expectSuccess(await upload(account, multipart(bytes, "renamed.png", "image/png")), 200).image).toMatchObject({ id: first.id, fileName: first.fileName });
      expect(await imagesOf(account.id)).toBe(1);
      expect((await storedFiles(first.id)).sort()).toEqual(files);
      // Another account's same bytes are its own image.
      const other = await createTestAccount();
      expect(expectSuccess(await upload(other, bytes, { "content-type": "image/png" }), 201).image.id).not.toBe(first.id);
    });

    it("at the same moment make one image: one 201, the others 200 with its id", async () => {
      const account = await createTestAccount();
      const bytes = await fixtures.photoJpeg(900, 600);
      const answers = await Promise.all(Array.from({ length: 6 }, () => upload(account, bytes, { "content-type": "image/jpeg" })));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
      const ids = new Set(answers.map((answer) => answer.json.data.image.id));
      expect(ids.size).toBe(1);
      expect(await imagesOf(account.id)).toBe(1);
      const image = await withEveryVariant(account, [...ids][0]!);
      expect((await storedFiles(image.id)).sort()).toEqual(fileNames(image).sort());
    });
  });

  describe("deleting an image a blog uses", () => {
    it("is refused with 409 IMAGE_IN_USE naming the blogs (cover, content), unless ?force=true, which clears covers", async () => {
      const account = await createTestAccount();
      const image = expectSuccess(await upload(account, await fixtures.png(), { "content-type": "image/png" }), 201).image;
      const unrelated = expectSuccess(await upload(account, await fixtures.webp(), { "content-type": "image/webp" }), 201).image;
      const covered = await createBlog(account, { title: "Cover story", coverImage: image.id, isPublic: true });
      const shown = await createBlog(account, { title: "Shown inside", content: `Intro\n\n![A chart](${image.url})`, isPublic: true });
      const both = await createBlog(account, { title: "Both ways", coverImage: image.id, content: `![Again](${new URL(image.url).pathname})` });
      await createBlog(account, { title: "Not using it", content: `![Other](${unrelated.url})` });

      const refused = expectError(await deleteImage(account, image.id), 409, "IMAGE_IN_USE");
      expect(refused.message).toBe("Image in use");
      for (const [blog, how] of [[covered, "cover"], [shown, "content"], [both, "cover and content"]] as const) {
        expect(refused.details).toContain(`"${blog.title}" (${blog.id}, ${how})`);
      }
      expect(refused.details).not.toContain("Not using it");
      expect(refused.details).toContain("?force=true");
      expect((await fetchFile(image.url)).status).toBe(200);
      expectError(await deleteImage(account, image.id, "?force=maybe"), 400, "INVALID_PARAMETER");

      expect(expectSuccess(await deleteImage(account, image.id, "?force=true"))).toEqual({ id: image.id, deleted: true });
      expect((await fetchFile(image.url)).status).toBe(404);
      expect(await storedFiles(image.id)).toEqual([]);
      const blogOf = async (id: string) => expectSuccess(await call(`/blogs/${id}`, { key: account.key, baseUrl: server() })).blog;
      expect((await blogOf(covered.id)).coverImage).toBeNull();
      expect((await blogOf(both.id)).coverImage).toBeNull();
      expect((await blogOf(shown.id)).content).toContain(image.url);
      const page = await publicPage(account, shown.blogSlug);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('alt="A chart"');
      expectError(await deleteImage(account, image.id), 404, "RESOURCE_NOT_FOUND");
    });

    it("follows the Markdown: once no blog names the image any more, it deletes with 200", async () => {
      const account = await createTestAccount();
      const image = expectSuccess(await upload(account, await fixtures.png(), { "content-type": "image/png" }), 201).image;
      const blog = await createBlog(account, { title: "For a while", content: `![A](${image.url})` });
      expectError(await deleteImage(account, image.id), 409, "IMAGE_IN_USE");
      const patched = await call(`/blogs/${blog.id}`, { key: account.key, method: "PATCH", baseUrl: server(), headers: { "content-type": "application/json" }, body: JSON.stringify({ content: "No picture now" }) });
      expectSuccess(patched);
      expect(expectSuccess(await deleteImage(account, image.id))).toEqual({ id: image.id, deleted: true });
      expect(await storedFiles(image.id)).toEqual([]);
    });
  });

  it("pages offer only the variants that exist: the thumbnail until the job has made the rest, then every one", async () => {
    const account = await createTestAccount();
    const image = expectSuccess(await upload(account, await fixtures.photoJpeg(2000, 1000), { "content-type": "image/jpeg" }), 201).image;
    const blog = await createBlog(account, { title: "Fresh photo", coverImage: image.id, content: `![A photo](${image.url})`, isPublic: true });
    const offered = async () => {
      const html = await (await publicPage(account, blog.blogSlug)).text();
      const urls = [...html.matchAll(/\/images\/[a-z0-9]+\/[0-9x]+w?\.[a-z]+/g)].map(([path]) => path);
      for (const path of new Set(urls)) expect((await fetch(new URL(path, server()))).status, path).toBe(200);
      return new Set(urls.map((path) => path.split("/").pop()));
    };
    // Whenever it is read, every file the page names exists.
    const first = await offered();
    expect(first.has("2000x1000.jpeg")).toBe(true);
    await withEveryVariant(account, image.id);
    await expect.poll(offered, { timeout: 10_000 }).toEqual(new Set(["2000x1000.jpeg", ...["480", "664", "960", "1328", "1600"].flatMap((width) => ["avif", "webp", "jpeg"].map((format) => `${width}w.${format}`))]));
  });

  it("the storage quota holds exactly under 20 concurrent uploads: 413 QUOTA_EXCEEDED past it, nothing stored", async () => {
    // 20 different images (the same bytes would be one), of about the same size stored.
    const images = await Promise.all(Array.from({ length: 20 }, (_, mark) => fixtures.markedPng(mark)));
    const probe = await createTestAccount();
    const sizes: number[] = [];
    for (const bytes of images) sizes.push(expectSuccess(await upload(probe, bytes, { "content-type": "image/png" }), 201).image.storedBytes);
    const account = await createTestAccount("free");
    const quota = 100_000_000;
    const room = 7;
    // The account's earlier images fill it up to room for any 7 more of these, never 8.
    expect(room * Math.max(...sizes)).toBeLessThan((room + 1) * Math.min(...sizes));
    const earlier = { id: randomBytes(16).toString("hex"), userId: account.id, width: 1, height: 1, format: "png", bytes: 1, fileName: "earlier.png" };
    await db().image.create({ data: { ...earlier, storedBytes: quota - room * Math.max(...sizes) } });
    const answers = await Promise.all(images.map((bytes) => upload(account, bytes, { "content-type": "image/png" })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(room);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(expectError(refused, 413, "QUOTA_EXCEEDED").details).toMatch(/^The free plan stores at most 100 MB of images/);
    }
    const used = await db().image.aggregate({ where: { userId: account.id }, _sum: { storedBytes: true } });
    expect(used._sum.storedBytes).toBeLessThanOrEqual(quota);
    expect(await imagesOf(account.id)).toBe(room + 1);
  }, 120_000);

  it("an Idempotency-Key retry replays the first upload; another file with it is a 409", async () => {
    const account = await createTestAccount();
    const headers = { "content-type": "image/png", "idempotency-key": `upload-${account.id}` };
    const bytes = await fixtures.png();
    const first = await upload(account, bytes, headers);
    const again = await upload(account, bytes, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(expectSuccess(again, 201)).toEqual(expectSuccess(first, 201));
    expectError(await upload(account, await fixtures.webp(), headers), 409, "RESOURCE_CONFLICT");
    expect(await imagesOf(account.id)).toBe(1);
  });
}
