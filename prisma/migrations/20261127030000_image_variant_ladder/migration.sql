-- Variants 664 and 1328 px wide joined the ladder (src/shared/images.ts, VARIANT_WIDTHS): images
-- complete before, wide enough for one of them, wait for the image_variants job again, which makes
-- only the files they lack (src/server/images/variants.ts). Until then pages offer their original
-- and thumbnail, files that exist (docs/images.md, Serving); the worker queues them as it starts.
UPDATE "image" SET "variantsPending" = true WHERE NOT "variantsPending" AND "width" > 664;
