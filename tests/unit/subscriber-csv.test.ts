import { describe, expect, it } from "vitest";
import { MAX_IMPORT_BYTES, parseSubscriberCsv, subscribersCsv } from "~/server/subscribers/csv";

/** Headers as the services' exports write them (docs/newsletters.md, Importing and exporting). */
const SUBSTACK = "email,active_subscription,expiry,plan,email_disabled,title,comp,stripe_connected_customer_id,created_at,first_payment_at,name";
const GHOST = "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers";
const MAILCHIMP =
  "Email Address,First Name,Last Name,Address,Phone Number,Birthday,MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,LATITUDE,LONGITUDE,GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS,UNSUB_TIME,UNSUB_CAMPAIGN_TITLE,UNSUB_CAMPAIGN_ID,UNSUB_REASON,UNSUB_REASON_OTHER";

const entries = (csv: string) => parseSubscriberCsv(csv).entries.map(({ line, email, name, unsubscribed }) => ({ line, email, name, unsubscribed }));

describe("reading a subscriber CSV", () => {
  it("reads Substack's export: email_disabled is an unsubscribe, active_subscription only payment", () => {
    const csv = [
      SUBSTACK,
      "ann@example.com,false,,,false,,,,2024-02-01T10:00:00.000Z,,Ann",
      "Bob@Example.com,true,2025-02-01,yearly,true,,,cus_1,2024-02-02T10:00:00.000Z,2024-02-02,",
    ].join("\n");
    expect(parseSubscriberCsv(csv).layout).toBe("substack");
    expect(entries(csv)).toEqual([
      { line: 2, email: "ann@example.com", name: "Ann", unsubscribed: false },
      { line: 3, email: "bob@example.com", name: "", unsubscribed: true },
    ]);
  });

  it("reads Ghost's members export: subscribed_to_emails false is an unsubscribe", () => {
    const csv = [
      GHOST,
      '6512a,cat@example.com,"Cat, the Reader",,true,false,,2023-09-26T10:00:00.000Z,,"News, Weekly",',
      "6512b,dan@example.com,Dan,,false,false,,2023-09-27T10:00:00.000Z,,,",
    ].join("\r\n");
    expect(parseSubscriberCsv(csv).layout).toBe("ghost");
    expect(entries(csv)).toEqual([
      { line: 2, email: "cat@example.com", name: "Cat, the Reader", unsubscribed: false },
      { line: 3, email: "dan@example.com", name: "Dan", unsubscribed: true },
    ]);
  });

  it("reads Mailchimp's audience export (with a byte order mark): UNSUB_TIME is an unsubscribe, names joined", () => {
    const filler = (n: number) => ",".repeat(n);
    const csv = [
      `\uFEFF${MAILCHIMP}`,
      `eve@example.com,Eve,Smith${filler(25)}`,
      `fay@example.com,Fay,${filler(21)}2024-05-01 10:00:00,Weekly,abc,NORMAL,`,
    ].join("\n");
    expect(parseSubscriberCsv(csv).layout).toBe("mailchimp");
    expect(entries(csv)).toEqual([
      { line: 2, email: "eve@example.com", name: "Eve Smith", unsubscribed: false },
      { line: 3, email: "fay@example.com", name: "Fay", unsubscribed: true },
    ]);
  });

  it("reads a plain email,name file, with or without a header, and reports invalid addresses by line", () => {
    expect(parseSubscriberCsv("Email,Name\ngus@example.com,Gus\n\nnot-an-address,X\n").layout).toBe("plain");
    const parsed = parseSubscriberCsv("Email,Name\ngus@example.com,Gus\n\nnot-an-address,X\n");
    expect(parsed.entries.map((e) => [e.line, e.email, e.name])).toEqual([[2, "gus@example.com", "Gus"]]);
    expect(parsed.invalid).toEqual([{ line: 4, email: "not-an-address" }]);
    expect(entries("hal@example.com,Hal\nivy@example.com\n")).toEqual([
      { line: 1, email: "hal@example.com", name: "Hal", unsubscribed: false },
      { line: 2, email: "ivy@example.com", name: "", unsubscribed: false },
    ]);
  });

  it("refuses a file with no address column, an empty one, broken CSV and one too large, naming the file", () => {
    for (const csv of ["title,body\nHello,World\n", "", 'email\n"unclosed@example.com\n', "email\n".padEnd(MAX_IMPORT_BYTES + 1, "a")]) {
      expect(() => parseSubscriberCsv(csv)).toThrow(expect.objectContaining({ code: "INVALID_PARAMETER", field: "file" }));
    }
  });
});

describe("writing the export", () => {
  it("writes the documented columns, escaping formulas", () => {
    const csv = subscribersCsv(
      [
        {
          id: "s1",
          email: "jo@example.com",
          name: "=HYPERLINK(\"x\")",
          status: "unsubscribed",
          source: "form",
          createdAt: "2026-01-01T00:00:00.000Z",
          confirmedAt: "2026-01-01T00:05:00.000Z",
          unsubscribedAt: "2026-02-01T00:00:00.000Z",
        },
      ],
      true,
    );
    expect(csv).toBe(
      "email,name,status,source,created_at,confirmed_at,unsubscribed_at\n" +
        "jo@example.com,\"'=HYPERLINK(\"\"x\"\")\",unsubscribed,form,2026-01-01T00:00:00.000Z,2026-01-01T00:05:00.000Z,2026-02-01T00:00:00.000Z\n",
    );
  });

  it("reads its own export back: only an active address comes back active (unsubscribed, bounced and pending do not)", () => {
    const view = (email: string, status: "active" | "pending" | "unsubscribed" | "bounced") => ({
      id: email,
      email,
      name: "",
      status,
      source: "form" as const,
      createdAt: "2026-01-01T00:00:00.000Z",
      confirmedAt: null,
      unsubscribedAt: status === "unsubscribed" ? "2026-02-01T00:00:00.000Z" : null,
    });
    const csv = subscribersCsv([view("a@example.com", "active"), view("u@example.com", "unsubscribed"), view("b@example.com", "bounced"), view("p@example.com", "pending")], true);
    expect(entries(csv).map(({ email, unsubscribed }) => [email, unsubscribed])).toEqual([
      ["a@example.com", false],
      ["u@example.com", true],
      ["b@example.com", true],
      ["p@example.com", true],
    ]);
  });
});
