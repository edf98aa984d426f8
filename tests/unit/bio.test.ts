// A person's bio (src/shared/bio.ts, docs/public-blog.md Authors): plain text up to 300
// characters after trimming, line breaks its only control characters.
import { describe, expect, it } from "vitest";
import { bioProblem, BIO_RULE, normalizedBio } from "~/shared/bio";

describe("a bio", () => {
  it("is trimmed, its line breaks made \\n", () => {
    expect(normalizedBio("  Wrote compilers.\r\nAdmiral.\rRetired.  ")).toBe("Wrote compilers.\nAdmiral.\nRetired.");
  });

  it("may be empty, 300 characters (emoji counted as one), or hold line breaks", () => {
    for (const bio of ["", "x".repeat(300), "🦀".repeat(300), "one\ntwo", "Ünïcödé — “quoted” <b>not html</b>"]) expect(bioProblem(bio), bio).toBeNull();
  });

  it("is refused over 300 characters, or with any other control character", () => {
    for (const bio of ["x".repeat(301), "tab\there", "nul\u0000", "escape\u001b[31m", "del\u007f"]) expect(bioProblem(bio), bio).toBe(BIO_RULE);
  });
});
