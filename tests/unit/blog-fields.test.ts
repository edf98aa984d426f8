import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blogFieldSchemas, optionalBlogFields, requiredTitle, SLUG_MAX_LENGTH, SLUG_PATTERN } from "~/shared/blog-fields";

/** The message a rule gives `value`, or null when it accepts it. */
function problem(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? "invalid");
}

describe("blog field rules (docs/api.md, writing rules)", () => {
  it("title: 1 to 200 characters after trimming; required when creating", () => {
    expect(blogFieldSchemas.title.parse("  Hello  ")).toBe("Hello");
    expect(problem(blogFieldSchemas.title, "x".repeat(200))).toBeNull();
    expect(problem(blogFieldSchemas.title, "x".repeat(201))).toBe("title must be 1 to 200 characters");
    expect(problem(blogFieldSchemas.title, 5)).toBe("title must be a string");
    for (const missing of [undefined, null, "", "   "]) expect(problem(requiredTitle, missing)).toBe("title is required");
  });

  it("blogSlug: 1 to 100 of a-z, 0-9 and single hyphens between them", () => {
    for (const slug of ["a", "hello-world", "2026-notes", "x".repeat(SLUG_MAX_LENGTH)]) expect(problem(blogFieldSchemas.blogSlug, slug), slug).toBeNull();
    expect(problem(blogFieldSchemas.blogSlug, "x".repeat(SLUG_MAX_LENGTH + 1))).toBe("blogSlug must be 1 to 100 characters");
    for (const slug of ["Hello", "a--b", "-a", "a-", "a_b", "é", "a b"]) {
      expect(SLUG_PATTERN.test(slug), slug).toBe(false);
      expect(problem(blogFieldSchemas.blogSlug, slug)).toBe("blogSlug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them");
    }
  });

  it("bounds the text fields, each message naming its field", () => {
    const limits = { description: 1000, seoTitle: 200, seoDescription: 500, content: 500_000 } as const;
    for (const [field, max] of Object.entries(limits) as [keyof typeof limits, number][]) {
      expect(problem(blogFieldSchemas[field], "x".repeat(max)), field).toBeNull();
      expect(problem(blogFieldSchemas[field], "")).toBeNull();
      expect(problem(blogFieldSchemas[field], "x".repeat(max + 1))).toBe(`${field} must be at most ${max} characters`);
      expect(problem(blogFieldSchemas[field], null)).toBe(`${field} must be a string`);
    }
  });

  it("isPublic: true or false only, never coerced", () => {
    expect(problem(blogFieldSchemas.isPublic, true)).toBeNull();
    for (const value of ["true", 1, "yes", null]) expect(problem(blogFieldSchemas.isPublic, value)).toBe("isPublic must be a boolean");
  });

  it("leaves every field but the title optional", () => {
    for (const [field, schema] of Object.entries(optionalBlogFields)) expect(problem(schema, undefined), field).toBeNull();
  });
});
