import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { call, createTestAccount, db } from "../support/api";
import { expectSuccess } from "../api/expect";
import { authPost, signIn } from "../support/dashboard";
import { tempDirMaker } from "../support/temp-dir";
import * as fixtures from "./fixtures";
import { imageApiSuite } from "./image-api-suite";

/**
 * The S3 store against a real S3-protocol server (s3rver, on disk in a scratch directory): a second
 * production server on the same database, its S3_* settings pointing at it.
 */
const BUCKET = "blog-images";
const makeTempDir = tempDirMaker("s3rver-");
let s3rver: S3rver;
let server: RunningServer;
let bucket: S3Client;

beforeAll(async () => {
  s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: await makeTempDir(), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  const settings = { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_BUCKET: BUCKET, S3_REGION: "us-east-1", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" };
  bucket = new S3Client({ endpoint: settings.S3_ENDPOINT, region: settings.S3_REGION, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  // Its own job worker makes the variants of the images it stores (the main server's leaves them: src/server/images/store.ts).
  server = await startProductionServer({ ...process.env, ...settings, WEBHOOK_WORKER: "1" }, { logFile: serverLogFile() });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await s3rver?.close();
});

/** The names of the objects the bucket holds for an image. */
async function objectsOf(imageId: string): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `images/${imageId}/` }));
  return (listed.Contents ?? []).map(({ Key }) => Key!.split("/").pop()!);
}

describe("images on an S3 bucket", () => {
  imageApiSuite(() => server.baseUrl, objectsOf);

  it("keeps no bytes in PostgreSQL", async () => {
    const account = await createTestAccount();
    const image = expectSuccess(await call("/images", { key: account.key, method: "POST", body: (await fixtures.png()) as never, headers: { "content-type": "image/png" }, baseUrl: server.baseUrl }), 201).image;
    // Its variants made by this server's job worker, in the bucket too.
    await expect.poll(async () => (await db().image.findUniqueOrThrow({ where: { id: image.id } })).variantsPending, { timeout: 60_000 }).toBe(false);
    expect(await db().imageFile.count({ where: { imageId: image.id } })).toBe(0);
    const complete = expectSuccess(await call(`/images/${image.id}`, { key: account.key, baseUrl: server.baseUrl })).image;
    expect((await objectsOf(image.id)).length).toBe(1 + complete.variants.length);
    expect(complete.variants.length).toBeGreaterThan(image.variants.length);
  });

  it("deleting the account deletes its images from the bucket", async () => {
    const account = await createTestAccount();
    const ids: string[] = [];
    for (const make of [fixtures.png, fixtures.webp]) {
      ids.push(expectSuccess(await call("/images", { key: account.key, method: "POST", body: (await make()) as never, headers: { "content-type": "image/png" }, baseUrl: server.baseUrl }), 201).image.id);
    }
    const cookie = await signIn(account, server.baseUrl);
    const deleted = await authPost("/delete-user", { password: "password-123" }, cookie, server.baseUrl);
    expect(deleted.status).toBe(200);
    expect(await db().user.findUnique({ where: { id: account.id } })).toBeNull();
    for (const id of ids) expect(await objectsOf(id)).toEqual([]);
  });
});
