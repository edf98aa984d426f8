import { describe } from "vitest";
import { apiBaseUrl, db } from "../support/api";
import { imageApiSuite } from "./image-api-suite";

describe("images on the PostgreSQL store (the default)", () => {
  imageApiSuite(apiBaseUrl, async (imageId) => (await db().imageFile.findMany({ where: { imageId }, select: { name: true } })).map(({ name }) => name));
});
