import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonHash } from "~/server/api/canonical-json";

describe("canonical JSON (the body hash of Idempotency-Key retries)", () => {
  it("sorts object keys at every depth, keeps array order and leaves undefined members out", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: "x" }], c: undefined } })).toBe('{"a":{"d":[3,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("é\"")).toBe(JSON.stringify("é\""));
  });

  it("hashes the same body the same whatever its key order, and another body otherwise", () => {
    const first = canonicalJsonHash({ title: "Hello", isPublic: true, content: "# Hi" });
    expect(canonicalJsonHash({ content: "# Hi", title: "Hello", isPublic: true })).toBe(first);
    expect(canonicalJsonHash({ content: "# Hi", title: "Hello", isPublic: false })).not.toBe(first);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
  });
});
