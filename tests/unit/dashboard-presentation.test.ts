import { describe, expect, it } from "vitest";
import { asSentence, formatNewsletterProgress, formatSubscriberCount } from "~/lib/format";
import { withoutOptionalExamples } from "~/lib/try-it-document";

describe("asSentence", () => {
  it("capitalizes a rule's message and ends it with a period, once", () => {
    expect(asSentence("the handle dashboard is reserved")).toBe("The handle dashboard is reserved.");
    expect(asSentence("Wrong email or password.")).toBe("Wrong email or password.");
  });
});

describe("a post's email in the editor", () => {
  it("counts subscribers, and tells the progress with failures only when there are some", () => {
    expect([0, 1, 1300].map(formatSubscriberCount)).toEqual(["0 subscribers", "1 subscriber", "1,300 subscribers"]);
    expect(formatNewsletterProgress({ sent: 1234, total: 1300, failed: 2 })).toBe("Sent to 1,234 of 1,300 · 2 failed");
    expect(formatNewsletterProgress({ sent: 0, total: 3, failed: 0 })).toBe("Sent to 0 of 3");
  });
});

describe("withoutOptionalExamples", () => {
  it("moves an optional parameter's example into its description, and keeps a required one's", () => {
    const document = withoutOptionalExamples({
      paths: {
        "/blogs": {
          get: {
            parameters: [
              { name: "from", required: false, description: "Created on or after", schema: { example: "2026-01-31" } },
              { name: "to", example: "2026-02-28" },
              { name: "blogId", required: true, schema: { example: "blog-1" } },
            ],
          },
        },
      },
    });
    expect(document.paths!["/blogs"]!.get!.parameters).toEqual([
      { name: "from", required: false, description: 'Created on or after Example: "2026-01-31".', schema: {} },
      { name: "to", description: 'Example: "2026-02-28".' },
      { name: "blogId", required: true, schema: { example: "blog-1" } },
    ]);
  });
});
