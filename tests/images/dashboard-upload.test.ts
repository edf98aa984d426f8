/**
 * The editor's upload: a form posted to /api/trpc/images.upload, as src/components/dashboard/upload-image.ts
 * sends it, taken only from the app's own pages (docs/security.md, Requests from other sites), its
 * refusals in tRPC's error shape with the API's code for the editor to explain.
 */
import { describe, expect, it } from "vitest";
import { UPLOAD_REQUEST_HEADER } from "~/shared/dashboard-limits";
import { MAX_IMAGE_REQUEST_BYTES } from "~/shared/images";
import { apiBaseUrl, createTestAccount, db } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import * as fixtures from "./fixtures";

const own = () => new URL(apiBaseUrl()).origin;
const fromEditor = () => ({ origin: own(), [UPLOAD_REQUEST_HEADER.name]: UPLOAD_REQUEST_HEADER.value });

function postForm(path: string, bytes: Buffer, headers: Record<string, string>): Promise<Response> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "picture.png");
  return fetch(new URL(path, apiBaseUrl()), { method: "POST", body: form, headers });
}

describe("the dashboard's image upload (/api/trpc/images.upload)", () => {
  it("stores an image posted as a form from the app's own page", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const answer = await postForm("/api/trpc/images.upload", await fixtures.png(), { cookie, ...fromEditor() });
    expect(answer.status).toBe(200);
    const { image } = (await answer.json()).result.data.data;
    expect(image).toMatchObject({ width: 640, height: 480, contentType: "image/png" });
    expect(new URL(image.url).pathname).toBe(`/images/${image.id}/640x480.png`);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(1);

    // Served (and so kept in memory), then deleted from the dashboard: gone at once on this server.
    const file = new URL(new URL(image.url).pathname, apiBaseUrl());
    expect((await fetch(file)).status).toBe(200);
    expect((await trpc(cookie, "images.delete", { imageId: image.id })).status).toBe(200);
    expect((await fetch(file)).status).toBe(404);
  });

  it("answers the same bytes posted again, one after the other or at once, with the image already stored", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const post = async (bytes: Buffer) => {
      const answer = await postForm("/api/trpc/images.upload", bytes, { cookie, ...fromEditor() });
      expect(answer.status).toBe(200);
      return (await answer.json()).result.data.data.image as { id: string; fileName: string };
    };
    const png = await fixtures.png();
    const first = await post(png);
    expect(first.fileName).toBe("picture.png");
    expect((await post(png)).id).toBe(first.id);
    const photo = await fixtures.photoJpeg(900, 600);
    const racing = await Promise.all(Array.from({ length: 4 }, () => post(photo)));
    expect(new Set(racing.map((image) => image.id)).size).toBe(1);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(2);
  });

  it("refuses a form from another origin, without the header, or at another procedure", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const png = await fixtures.png();
    const refusals: [string, Record<string, string>][] = [
      ["/api/trpc/images.upload", { origin: own() }],
      ["/api/trpc/images.upload", { ...fromEditor(), origin: "https://evil.example" }],
      ["/api/trpc/images.upload", { [UPLOAD_REQUEST_HEADER.name]: UPLOAD_REQUEST_HEADER.value }],
      ["/api/trpc/keys.create", fromEditor()],
    ];
    for (const [path, headers] of refusals) {
      const refused = await postForm(path, png, { cookie, ...headers });
      expect(refused.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect((await refused.json()).error.code).toBe("FORBIDDEN");
    }
    expect(await db().image.count({ where: { userId: account.id } })).toBe(0);
  });

  it("answers a refusal with the API's code and details: not an image (415), too large (413), a bomb (400)", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const refusal = async (bytes: Buffer) => {
      const answer = await postForm("/api/trpc/images.upload", bytes, { cookie, ...fromEditor() });
      const { error } = await answer.json();
      return { status: answer.status, apiCode: error.data.apiCode, details: error.data.details };
    };
    expect(await refusal(fixtures.pdfFile())).toMatchObject({ status: 415, apiCode: "UNSUPPORTED_MEDIA_TYPE" });
    expect(await refusal(Buffer.alloc(MAX_IMAGE_REQUEST_BYTES))).toMatchObject({ status: 413, apiCode: "PAYLOAD_TOO_LARGE" });
    expect(await refusal(fixtures.pngBomb())).toMatchObject({ status: 400, apiCode: "INVALID_PARAMETER", details: expect.stringContaining("megapixels") });
    expect(await db().image.count({ where: { userId: account.id } })).toBe(0);
  });
});
