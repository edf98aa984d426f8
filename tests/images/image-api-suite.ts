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
        const image = expectSuccess(await upload(account, bytes, { "content-type": "application/octet-stream" }), 201).image;
        expect(image).toMatchObject({ width: sample.width, height: sample.height, contentType: `image/${sample.format}` });
        expect(Object.keys(image).sort()).toEqual(["bytes", "contentType", "createdAt", "height", "id", "storedBytes", "url", "variants", "width"]);
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

    it("variants at 480, 960, 1600 and 2400 px wide, never wider than the image, in AVIF, WebP and its own format", async () => {
      const account = await createTestAccount();
      const image = expectSuccess(await upload(account, await fixtures.photoJpeg(2000, 1000), { "content-type": "image/jpeg" }), 201).image;
      expect(image.variants.map((v: { url: string; width: number }) => `${v.width}:${v.url.split(".").pop()}`)).toEqual([
        "480:avif", "480:webp", "480:jpeg", "960:avif", "960:webp", "960:jpeg", "1600:avif", "1600:webp", "1600:jpeg",
      ]);
      const widest = await sharp(Buffer.from(await (await fetchFile(image.variants.at(-1).url)).arrayBuffer())).metadata();
      expect({ width: widest.width, height: widest.height }).toEqual({ width: 1600, height: 800 });
    });

    it("takes a multipart form's file part, whatever its name or declared type says", async () => {
      const account = await createTestAccount();
      const image = expectSuccess(await upload(account, multipart(await fixtures.png(), "holiday.jpg", "image/jpeg")), 201).image;
      expect(image.contentType).toBe("image/png");
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
    const image = expectSuccess(await upload(owner, await fixtures.png(), { "content-type": "image/png" }), 201).image;
    expectError(await call(`/images/${image.id}`, { key: intruder.key, baseUrl: server() }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call(`/images/${image.id}`, { key: intruder.key, method: "DELETE", baseUrl: server() }), 404, "RESOURCE_NOT_FOUND");
    expect(expectSuccess(await call("/images", { key: intruder.key, baseUrl: server() })).images).toEqual([]);
    expect(expectSuccess(await call(`/images/${image.id}`, { key: owner.key, baseUrl: server() })).image).toEqual(image);
    const list = expectSuccess(await call("/images?limit=5", { key: owner.key, baseUrl: server() }));
    expect(list).toEqual({ images: [image], pagination: { page: 1, limit: 5, total: 1, totalPages: 1, hasNext: false, hasPrev: false } });
  });

  it("deleting an image removes every file; a blog showing it stays readable", async () => {
    const account = await createTestAccount();
    const image = expectSuccess(await upload(account, await fixtures.png(), { "content-type": "image/png" }), 201).image;
    const blog = expectSuccess(
      await call("/blogs", { key: account.key, method: "POST", baseUrl: server(), headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "With a picture", content: `![A chart](${image.url})`, isPublic: true }) }),
      201,
    ).blog;
    expect(expectSuccess(await call(`/images/${image.id}`, { key: account.key, method: "DELETE", baseUrl: server() }))).toEqual({ id: image.id, deleted: true });
    expect((await fetchFile(image.url)).status).toBe(404);
    expect(await storedFiles(image.id)).toEqual([]);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: account.key, baseUrl: server() })).blog.content).toContain(image.url);
    const page = await fetch(new URL(`/${(await db().user.findUniqueOrThrow({ where: { id: account.id } })).handle}/${blog.blogSlug}`, server()));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('alt="A chart"');
    expectError(await call(`/images/${image.id}`, { key: account.key, method: "DELETE", baseUrl: server() }), 404, "RESOURCE_NOT_FOUND");
  });

  it("the storage quota holds exactly under 20 concurrent uploads: 413 QUOTA_EXCEEDED past it, nothing stored", async () => {
    const probe = await createTestAccount();
    const bytes = await fixtures.png();
    const size = expectSuccess(await upload(probe, bytes, { "content-type": "image/png" }), 201).image.storedBytes as number;
    const account = await createTestAccount("free");
    const quota = 100_000_000;
    const room = 7;
    // The account's earlier images fill it up to room for exactly 7 more of these.
    await db().image.create({ data: { id: randomBytes(16).toString("hex"), userId: account.id, width: 1, height: 1, format: "png", bytes: 1, storedBytes: quota - room * size - (size - 1) } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(account, bytes, { "content-type": "image/png" })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(room);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(expectError(refused, 413, "QUOTA_EXCEEDED").details).toMatch(/^The free plan stores at most 100 MB of images/);
    }
    const used = await db().image.aggregate({ where: { userId: account.id }, _sum: { storedBytes: true } });
    expect(used._sum.storedBytes).toBeLessThanOrEqual(quota);
    expect(await imagesOf(account.id)).toBe(room + 1);
  });

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
