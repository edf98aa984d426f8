/**
 * The TypeScript client in use (docs/typescript-client.md): list, create with an Idempotency-Key,
 * a conditional read answered 304, an update guarded by If-Match, a delete, and an image uploaded
 * and deleted.
 * Run: API_BASE_URL=http://localhost:3000 API_KEY=bm_... npx tsx clients/typescript/example.ts
 */
import { createBlogClient } from "./index.js";

const origin = process.env.API_BASE_URL;
const apiKey = process.env.API_KEY;
if (!origin || !apiKey) throw new Error("set API_BASE_URL (the app's origin) and API_KEY");
const api = createBlogClient({ origin, apiKey });

const listed = await api.GET("/blogs", { params: { query: { limit: 5 } } });
if (!listed.data) throw new Error(`list failed: ${listed.response.status}`);
console.log(`listed ${listed.data.data.blogs.length} of ${listed.data.data.pagination.total} blogs`);

// A retry with the same key and body gets the first answer again and creates nothing.
const idempotencyKey = crypto.randomUUID();
const create = () => api.POST("/blogs", { params: { header: { "Idempotency-Key": idempotencyKey } }, body: { title: "Written by the typed client" } });
const created = await create();
if (!created.data) throw new Error(`create failed: ${created.response.status}`);
const retried = await create();
const blog = created.data.data.blog;
console.log(`created ${blog.id} (${created.response.status}); the retry replayed: ${retried.response.headers.get("Idempotent-Replayed")}, same blog: ${retried.data?.data.blog.id === blog.id}`);

const read = await api.GET("/blogs/{blogId}", { params: { path: { blogId: blog.id } } });
const etag = read.response.headers.get("ETag");
if (!read.data || !etag) throw new Error(`read failed: ${read.response.status}`);
const unchanged = await api.GET("/blogs/{blogId}", { params: { path: { blogId: blog.id }, header: { "If-None-Match": etag } } });
console.log(`conditional read: ${unchanged.response.status}`);

const updated = await api.PATCH("/blogs/{blogId}", {
  params: { path: { blogId: blog.id }, header: { "If-Match": etag } },
  body: { description: "Changed only if nobody else did" },
});
if (!updated.data) throw new Error(`update failed: ${updated.response.status}`);
const stale = await api.PATCH("/blogs/{blogId}", { params: { path: { blogId: blog.id }, header: { "If-Match": etag } }, body: { description: "lost update" } });
console.log(`updated (${updated.response.status}): ${updated.data.data.blog.description}; with the old ETag: ${stale.response.status} ${stale.error?.error.code}`);

const deleted = await api.DELETE("/blogs/{blogId}", { params: { path: { blogId: blog.id } } });
if (!deleted.data) throw new Error(`delete failed: ${deleted.response.status}`);
console.log(`deleted ${deleted.data.data.id}: ${deleted.data.data.deleted}`);

// A 1×1 PNG, uploaded as the body: openapi-fetch sends JSON unless told to send the body as it is.
const pixel = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const uploaded = await api.POST("/images", {
  body: new Blob([pixel], { type: "image/png" }),
  bodySerializer: (file) => file,
  headers: { "Content-Type": "image/png" },
});
if (!uploaded.data) throw new Error(`upload failed: ${uploaded.response.status} ${uploaded.error?.error.code}`);
const image = uploaded.data.data.image;
await api.DELETE("/images/{imageId}", { params: { path: { imageId: image.id } } });
console.log(`uploaded ${image.width}x${image.height} ${image.contentType} (${uploaded.response.status}), deleted`);
