import { describe, expect, it } from "vitest";
import { presentedApiKey } from "~/server/keys/presented-key";

const none = { xApiKey: null, authorization: null, queryApiKey: null };

describe("the key a request presents (README, The API: authentication)", () => {
  it("prefers x-api-key, then Authorization: Bearer, then ?api_key=", () => {
    expect(presentedApiKey({ xApiKey: "bm_header", authorization: "Bearer bm_bearer", queryApiKey: "bm_query" })).toBe("bm_header");
    expect(presentedApiKey({ ...none, authorization: "Bearer bm_bearer", queryApiKey: "bm_query" })).toBe("bm_bearer");
    expect(presentedApiKey({ ...none, queryApiKey: "bm_query" })).toBe("bm_query");
  });

  it("reads the Bearer scheme in any case and trims blanks", () => {
    expect(presentedApiKey({ ...none, authorization: "  bearer   bm_key  " })).toBe("bm_key");
    expect(presentedApiKey({ ...none, xApiKey: " bm_key " })).toBe("bm_key");
  });

  it("counts empty values and other Authorization schemes as no key, falling through to the next source", () => {
    expect(presentedApiKey(none)).toBeNull();
    expect(presentedApiKey({ xApiKey: "  ", authorization: "", queryApiKey: "" })).toBeNull();
    expect(presentedApiKey({ ...none, authorization: "Basic dXNlcjpwYXNz" })).toBeNull();
    expect(presentedApiKey({ ...none, authorization: "Bearer " })).toBeNull();
    expect(presentedApiKey({ xApiKey: "", authorization: "Token bm_x", queryApiKey: "bm_query" })).toBe("bm_query");
  });
});
