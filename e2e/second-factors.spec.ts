import { expect, test, type Page } from "@playwright/test";
import { collectProblems, expectAccessible, PASSWORD, postWaitingOutLimit, signUp, submitWaitingOutLimit, VIEWPORTS } from "./support";
import { authenticatorApp } from "../tests/support/authenticator-app";
import { emailsTo } from "../tests/support/mailbox";

/**
 * Second factors from the account page at a phone's and a laptop's width (docs/security.md):
 * passkeys added, renamed, used to sign in without a password and removed, with Chromium's virtual
 * authenticator; two-factor sign-in turned on with a code computed from the setup key shown, then
 * asked after the password; the sessions card. axe-core on every new view and dialog.
 *
 * At localhost, not 127.0.0.1: a WebAuthn relying party must be a domain name, and the app's is
 * the hostname its pages are reached at.
 */
test.use({ baseURL: (process.env.API_BASE_URL ?? "http://127.0.0.1:3000").replace("127.0.0.1", "localhost") });

/**
 * A platform authenticator that verifies its user, as a laptop's fingerprint reader does; or
 * (`canVerifyUser: false`) a security key that only sees someone touch it. Its verification can be
 * switched off (the owner's finger not checked), and the authenticator unplugged.
 */
async function addVirtualAuthenticator(page: Page, { canVerifyUser = true } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: canVerifyUser
      ? { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true }
      : { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: false },
  });
  return {
    setUserVerified: (isUserVerified: boolean) => cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified }),
    unplug: () => cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId }),
  };
}

/**
 * The page asks the authenticator not to verify its user, whatever the server's options say: a
 * client that skips the check, as an attacker's would (the server must refuse what it gets). A
 * key kept on the authenticator (resident) is not asked for either: Chromium makes one only with
 * the user verified.
 */
async function askNoUserVerification(page: Page): Promise<void> {
  await page.route(/\/api\/auth\/passkey\/generate-(register|authenticate)-options/, async (route) => {
    const response = await route.fetch();
    const options = await response.json();
    if (options.authenticatorSelection) options.authenticatorSelection = { userVerification: "discouraged", residentKey: "discouraged", requireResidentKey: false };
    else options.userVerification = "discouraged";
    // The answer's own headers kept: its cookie names the challenge.
    await route.fulfill({ response, json: options });
  });
}

/** Fills the Passkeys card's form to add one: a name, the account password (and a code when asked). */
async function fillNewPasskey(page: Page, name: string, { password = PASSWORD, code }: { password?: string; code?: string } = {}): Promise<void> {
  const passkeys = card(page, "Passkeys");
  await passkeys.getByLabel("Name of the new passkey").fill(name);
  await passkeys.getByLabel("Account password").fill(password);
  if (code !== undefined) await passkeys.getByLabel("Code").fill(code);
}

/** Adds a passkey from the account page: the password checked first (in sign-in's budget, which may make it wait), then the browser's prompt. */
async function addPasskey(page: Page, name: string, options: { password?: string; code?: string } = {}): Promise<void> {
  await fillNewPasskey(page, name, options);
  await submitWaitingOutLimit(page, "Add a passkey", "/api/auth/passkey/authorize-registration");
}

const card = (page: Page, title: string) => page.locator("section").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("passkeys: added with the password and named, renamed, signing in without a password, removed", async ({ page }) => {
      // A wrong password is provoked on purpose.
      const problems = collectProblems(page, (url) => url.includes("/api/auth/passkey/authorize-registration"));
      await addVirtualAuthenticator(page);
      const run = `${viewport.name}-${Date.now().toString(36)}`;
      await signUp(page, { name: "Pat Passkey", handle: `pk-${run}`, email: `pk-${run}@example.test` });
      await page.goto("/dashboard/account");
      const passkeys = card(page, "Passkeys");
      await expect(passkeys.getByText("No passkeys yet.")).toBeVisible();
      await expect(card(page, "Sessions").getByText("This device")).toBeVisible();
      await expectAccessible(page, "account page");

      await passkeys.getByRole("button", { name: "Add a passkey" }).click();
      await expect(passkeys.getByText("Give it a name of 1 to 60 characters.")).toBeVisible();
      await expect(passkeys.getByText("Enter your password.")).toBeVisible();
      await expectAccessible(page, "adding a passkey");
      await page.screenshot({ path: test.info().outputPath(`adding-a-passkey-${viewport.name}.png`), fullPage: true });
      await addPasskey(page, "Work laptop", { password: "not-the-password" });
      await expect(passkeys.getByText("That is not your password.")).toBeVisible();
      await expect(passkeys.getByText("No passkeys yet.")).toBeVisible();
      await addPasskey(page, "Work laptop");
      await expect(passkeys.getByText('Passkey "Work laptop" added. You can sign in with it.')).toBeVisible();
      await expect(passkeys.getByRole("list", { name: "Passkeys" }).getByText("Work laptop")).toBeVisible();
      await expect(passkeys.getByText(/^Added /)).toBeVisible();

      await passkeys.getByRole("button", { name: "Rename Work laptop" }).click();
      await passkeys.getByLabel("New name for Work laptop").fill("Home laptop");
      await expectAccessible(page, "renaming a passkey");
      await passkeys.getByRole("button", { name: "Save" }).click();
      await expect(passkeys.getByText('Renamed to "Home laptop".')).toBeVisible();

      await signOut(page);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto("/dashboard/account");
      await passkeys.getByRole("button", { name: "Remove Home laptop" }).click();
      const dialog = page.getByRole("dialog", { name: "Remove the passkey “Home laptop”?" });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, "removing a passkey");
      await dialog.getByRole("button", { name: "Remove passkey" }).click();
      await expect(passkeys.getByText('Passkey "Home laptop" removed.')).toBeVisible();
      await expect(passkeys.getByText("No passkeys yet.")).toBeVisible();
      // Both changes were emailed to the owner (docs/security.md, Security notices).
      await expect
        .poll(async () => (await emailsTo(`pk-${run}@example.test`)).map((email) => email.subject), { timeout: 20_000 })
        .toEqual(expect.arrayContaining(["A passkey was added", "A passkey was removed"]));
      expect(problems).toEqual([]);
    });

    test("sessions: each listed with its device, another one ended", async ({ page, browser, baseURL }) => {
      const problems = collectProblems(page, () => false);
      const run = `${viewport.name}-${Date.now().toString(36)}`;
      const email = `ss-${run}@example.test`;
      await signUp(page, { name: "Sam Sessions", handle: `ss-${run}`, email });
      // The same owner signed in from another browser.
      const elsewhere = await browser.newContext({ baseURL, userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" });
      const signedIn = await postWaitingOutLimit(elsewhere.request, "/api/auth/sign-in/email", { data: { email, password: PASSWORD }, headers: { origin: new URL(baseURL!).origin } });
      expect(signedIn.status()).toBe(200);

      await page.goto("/dashboard/account");
      const sessions = card(page, "Sessions");
      await expect(sessions.getByRole("listitem")).toHaveCount(2);
      await expect(sessions.getByRole("listitem").first().getByText("This device")).toBeVisible();
      await expect(sessions.getByText("Firefox on Linux")).toBeVisible();
      await sessions.getByRole("button", { name: /^End session on Firefox on Linux/ }).click();
      await expect(sessions.getByText("The session on Firefox on Linux is ended.")).toBeVisible();
      await expect(sessions.getByRole("listitem")).toHaveCount(1);
      await expectAccessible(page, "sessions");
      expect(await (await elsewhere.request.get("/api/auth/get-session")).json()).toBeNull();
      await elsewhere.close();
      expect(problems).toEqual([]);
    });

    test("two-factor sign-in: set up with the app's code, backup codes shown once, asked after the password", async ({ page }) => {
      // Wrong codes are provoked on purpose.
      const problems = collectProblems(page, (url) => url.includes("/api/auth/two-factor/verify-totp"));
      const authenticator = await addVirtualAuthenticator(page);
      const run = `${viewport.name}-${Date.now().toString(36)}`;
      const email = `tf-${run}@example.test`;
      await signUp(page, { name: "Tess Totp", handle: `tf-${run}`, email });
      await page.goto("/dashboard/account");
      const twoFactor = card(page, "Two-factor sign-in");
      await twoFactor.getByLabel("Account password").fill(PASSWORD);
      await submitWaitingOutLimit(page, "Set up two-factor sign-in", "/api/auth/two-factor/enable");
      await expect(twoFactor.getByRole("img", { name: "QR code to add Blog Manager to your authenticator app" })).toBeVisible();
      const secret = (await twoFactor.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent())!.replace(/\s/g, "");
      const app = authenticatorApp({ base32: secret });
      await expectAccessible(page, "two-factor setup");

      await twoFactor.getByLabel("Code from the app").fill("000000");
      await submitWaitingOutLimit(page, "Turn on", "/api/auth/two-factor/verify-totp");
      await expect(twoFactor.getByText("That code is not right.", { exact: false })).toBeVisible();
      await submitWaitingOutLimit(page, "Turn on", "/api/auth/two-factor/verify-totp", {
        fill: async () => twoFactor.getByLabel("Code from the app").fill(await app.nextCode()),
      });
      const codes = twoFactor.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
      await expect(codes).toHaveCount(10);
      const backupCode = (await codes.first().textContent())!;
      await expect(twoFactor.getByRole("status").filter({ hasText: "Two-factor sign-in is on." })).toBeVisible();
      await expectAccessible(page, "backup codes");
      await twoFactor.getByRole("button", { name: "I have saved them" }).click();
      await expect(twoFactor.getByText(/^On\. Every sign-in/)).toBeVisible();
      await expectAccessible(page, "two-factor on");

      await signOut(page);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
      await expect(page.getByLabel("6-digit code")).toBeFocused();
      await expectAccessible(page, "sign-in code step");
      await page.getByRole("button", { name: "Use a backup code instead" }).click();
      await expect(page.getByLabel("Backup code")).toBeVisible();
      await page.getByRole("button", { name: "Use your authenticator app instead" }).click();
      await submitWaitingOutLimit(page, "Verify", "/api/auth/two-factor/verify-totp", { fill: async () => page.getByLabel("6-digit code").fill(await app.nextCode()) });
      await expect(page).toHaveURL(/\/dashboard$/);

      // With two-factor sign-in on, a passkey also takes a code (here a backup code: the app's next one is half a minute away).
      await page.goto("/dashboard/account");
      const passkeys = card(page, "Passkeys");
      await fillNewPasskey(page, "Desk");
      await passkeys.getByRole("button", { name: "Add a passkey" }).click();
      await expect(passkeys.getByText("Enter a code from your app, or a backup code.")).toBeVisible();
      await addPasskey(page, "Desk", { code: backupCode });
      await expect(passkeys.getByText('Passkey "Desk" added. You can sign in with it.')).toBeVisible();
      await expectAccessible(page, "passkey added with a code");
      await authenticator.unplug();
      expect(problems).toEqual([]);
    });

    test("passkeys: refused when the authenticator did not verify its user, to add one and to sign in", async ({ page }) => {
      // The refusals are provoked on purpose.
      const problems = collectProblems(page, (url) => url.includes("/api/auth/passkey/verify-"));
      const run = `${viewport.name}-${Date.now().toString(36)}`;
      await signUp(page, { name: "Uma Unverified", handle: `uv-${run}`, email: `uv-${run}@example.test` });
      await page.goto("/dashboard/account");
      const passkeys = card(page, "Passkeys");
      const refusal = "The passkey did not verify you (fingerprint, face or PIN). Try again, or use another device.";

      // A security key without fingerprint or PIN, asked for no verification.
      const securityKey = await addVirtualAuthenticator(page, { canVerifyUser: false });
      await askNoUserVerification(page);
      await addPasskey(page, "Bare key");
      await expect(passkeys.getByText(refusal)).toBeVisible();
      await expect(passkeys.getByText("No passkeys yet.")).toBeVisible();
      await securityKey.unplug();
      await page.unrouteAll();

      const laptop = await addVirtualAuthenticator(page);
      await addPasskey(page, "Laptop");
      await expect(passkeys.getByText('Passkey "Laptop" added. You can sign in with it.')).toBeVisible();

      // The same passkey, its owner's finger not checked.
      await signOut(page);
      await askNoUserVerification(page);
      await laptop.setUserVerified(false);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expect(page.getByText(refusal)).toBeVisible();
      await expect(page).toHaveURL(/\/sign-in/);
      expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
      expect(problems).toEqual([]);
    });
  });
}
