import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signUp } from "./support";

// The Webhooks page (docs/webhooks.md) against a receiver on 127.0.0.1 (`npm test` allows private URLs).
test("an owner adds an endpoint, keeps its secret, sends a test event, sees the delivery and resends it", async ({ page }) => {
  test.setTimeout(120_000);
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.end("received");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  try {
    const id = randomUUID().slice(0, 8);
    await signUp(page, { name: "Hook Owner", handle: `hooks-${id}`, email: `hooks-${id}@example.test` });
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByText("No endpoints yet")).toBeVisible();

    // A refusal shows under the field it is about.
    await page.getByLabel("URL", { exact: true }).fill("not a url");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByLabel("URL", { exact: true })).toHaveAccessibleDescription(/url must be an absolute URL/);
    await page.getByLabel("URL", { exact: true }).fill(url);
    await page.getByLabel("Description", { exact: true }).fill("nul\u0000here");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByLabel("Description", { exact: true })).toHaveAccessibleDescription(/description must not contain NUL characters/);
    await expect(page.getByLabel("Description", { exact: true })).toHaveAttribute("aria-invalid", "true");

    // blog.published is among the events ticked to start with.
    await expect(page.getByRole("checkbox", { name: "blog.published" })).toBeChecked();
    await page.getByLabel("Description", { exact: true }).fill("");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "I have stored the secret" }).click();

    await expect(page.getByText(url)).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("table", { name: "Recent deliveries" }).getByText("webhook.test")).toBeVisible();
    await expect(page.getByRole("table", { name: "Recent deliveries" }).getByText("succeeded")).toBeVisible({ timeout: 15_000 });
    // Deliveries' times to the second: a test and its resend within a minute read apart.
    await expect(page.getByRole("table", { name: "Recent deliveries" }).locator("time").first()).toHaveText(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d$/);
    expect(received).toHaveLength(1);
    expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toMatchObject({ type: "webhook.test" });

    await page.getByRole("button", { name: "Resend" }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
  } finally {
    receiver.close();
  }
});
