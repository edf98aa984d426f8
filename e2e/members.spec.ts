import { expect, test, type Page } from "@playwright/test";
import { waitForLink } from "../tests/support/mailbox";
import { expectAccessible, PASSWORD, signUp, submitWaitingOutLimit, VIEWPORTS } from "./support";

/**
 * The Members page and an invitation (docs/dashboard.md, Members; docs/teams.md): the owner
 * invites an editor; the invitee, signed out in a browser of their own, opens the emailed link,
 * signs in, comes back to it and joins; their dashboard then works in the owner's publication and
 * switches back to their own. On a phone and on a laptop, light and dark; screenshots into
 * docs/screenshots/.
 */

const shot = (page: Page, name: string) => page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: true, animations: "disabled" });

for (const viewport of VIEWPORTS) {
  test(`members and an invitation on a ${viewport.name} (${viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(240_000);
    const size = { width: viewport.width, height: viewport.height };
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const owner = { name: "Olive Owner", handle: `olive-${run}`, email: `olive-${run}@example.test` };
    const invitee = { name: "Ivan Invitee", handle: `ivan-${run}`, email: `ivan-${run}@example.test` };
    const ownerContext = await browser.newContext({ viewport: size });
    const inviteeContext = await browser.newContext({ viewport: size });
    const ownerPage = await ownerContext.newPage();
    const inviteePage = await inviteeContext.newPage();

    await test.step("the invitee has an account of their own, and is signed out", async () => {
      await signUp(inviteePage, invitee);
      await inviteePage.goto("/sign-out");
      await inviteePage.getByRole("button", { name: "Sign out" }).click();
      await expect(inviteePage).toHaveURL(/\/sign-in$/);
    });

    await test.step("the owner invites them as an editor", async () => {
      await signUp(ownerPage, owner);
      // One publication: no switcher.
      await expect(ownerPage.getByLabel("Publication", { exact: true })).toHaveCount(0);
      await ownerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Members" }).click();
      await expect(ownerPage.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
      await expect(ownerPage.getByText("No invitation is waiting for an answer.")).toBeVisible();
      await expectAccessible(ownerPage, "Members, alone");

      await ownerPage.getByRole("button", { name: "Invite a member" }).click();
      const dialog = ownerPage.getByRole("dialog", { name: "Invite a member" });
      // Nobody is invited as owner: the choice is not even offered.
      await expect(dialog.getByLabel("Role").locator("option")).toHaveText(["Administrator", "Editor", "Author", "Contributor"]);
      await dialog.getByLabel("Email address").fill("not an address");
      await dialog.getByRole("button", { name: "Send invitation" }).click();
      await expect(dialog.getByLabel("Email address")).toHaveAccessibleDescription(/email must be an email address/);
      await expectAccessible(ownerPage, "Invite dialog, refused");
      await dialog.getByLabel("Email address").fill(invitee.email);
      await dialog.getByLabel("Role").selectOption("editor");
      await dialog.getByRole("button", { name: "Send invitation" }).click();
      await expect(ownerPage.getByRole("status").filter({ hasText: `Invitation emailed to ${invitee.email}.` })).toBeVisible();
      await expect(ownerPage.getByRole("region", { name: "Pending invitations" }).getByText(invitee.email, { exact: true })).toBeVisible();
    });

    const { link } = await waitForLink(invitee.email, 2);
    const invitationPath = new URL(link).pathname;

    await test.step("signed out, the invitation asks them to sign in, then brings them back to join", async () => {
      await inviteePage.goto(invitationPath);
      await expect(inviteePage.getByRole("heading", { name: `Join ${owner.name}`, level: 1 })).toBeVisible();
      await expect(inviteePage.getByText(`Sign in with ${invitee.email}`)).toBeVisible();
      await expectAccessible(inviteePage, "Invitation, signed out");
      await shot(inviteePage, `invitation-signed-out-${viewport.width}`);
      await inviteePage.getByRole("link", { name: "Sign in to join" }).click();
      await inviteePage.getByLabel("Email", { exact: true }).fill(invitee.email);
      await inviteePage.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await submitWaitingOutLimit(inviteePage, "Sign in", "/api/auth/sign-in/email");
      await expect(inviteePage).toHaveURL(new RegExp(`${invitationPath}$`));
      const join = inviteePage.getByRole("button", { name: `Join ${owner.name} as editor` });
      await expect(join).toBeVisible();
      await expectAccessible(inviteePage, "Invitation, ready");
      await shot(inviteePage, `invitation-${viewport.width}`);
      await join.click();
      await expect(inviteePage).toHaveURL(/\/dashboard$/);
    });

    await test.step("the invitee works in the owner's publication, and switches back to their own", async () => {
      const switcher = inviteePage.getByLabel("Publication", { exact: true });
      await expect(switcher).toHaveValue(await ownerPublicationId(ownerPage));
      await inviteePage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Members" }).click();
      await expect(inviteePage.getByRole("heading", { name: `Members of ${owner.name}` })).toBeVisible();
      await expect(inviteePage.getByRole("listitem").filter({ hasText: invitee.email })).toContainText("Editor");
      await expectAccessible(inviteePage, "Members, as an editor");

      await switcher.selectOption({ label: `${invitee.name} (/${invitee.handle})` });
      await expect(inviteePage).toHaveURL(/\/dashboard$/);
      await expect(inviteePage.getByLabel("Publication", { exact: true })).toHaveValue(await inviteePublicationId(inviteePage));
      await inviteePage.goto("/dashboard/members");
      await expect(inviteePage.getByRole("heading", { name: `Members of ${invitee.name}` })).toBeVisible();
      // The link was used: it says so.
      await inviteePage.goto(invitationPath);
      await expect(inviteePage.getByRole("heading", { name: "This invitation was already used" })).toBeVisible();
      await expectAccessible(inviteePage, "Invitation, used");
    });

    await test.step("the owner sees the new editor, changes their role, and opens the transfer", async () => {
      await ownerPage.reload();
      const row = ownerPage.getByRole("listitem").filter({ hasText: invitee.email });
      await expect(row.getByLabel(`Role of ${invitee.name}`)).toHaveValue("editor");
      await expect(ownerPage.getByText("No invitation is waiting for an answer.")).toBeVisible();
      await row.getByLabel(`Role of ${invitee.name}`).selectOption("author");
      await expect(ownerPage.getByRole("status").filter({ hasText: `${invitee.name} is now an author.` })).toBeVisible();
      await expectAccessible(ownerPage, "Members, two");
      await ownerPage.getByRole("button", { name: "Dismiss" }).click();
      await shot(ownerPage, `members-${viewport.width}`);

      await row.getByRole("button", { name: `Make owner (${invitee.name})` }).click();
      const transfer = ownerPage.getByRole("dialog", { name: `Transfer ${owner.name} to ${invitee.name}?` });
      await transfer.getByLabel("Your password").fill("not-my-password");
      await transfer.getByRole("button", { name: "Transfer ownership" }).click();
      await expect(transfer.getByLabel("Your password")).toHaveAccessibleDescription("Wrong password");
      await expectAccessible(ownerPage, "Transfer dialog, refused");
      await transfer.getByRole("button", { name: "Cancel" }).click();
      await expect(transfer).toHaveCount(0);

      await row.getByRole("button", { name: `Remove ${invitee.name}` }).click();
      await ownerPage.getByRole("dialog", { name: `Remove ${invitee.name}?` }).getByRole("button", { name: "Remove", exact: true }).click();
      await expect(ownerPage.getByRole("status").filter({ hasText: `${invitee.name} was removed from ${owner.name}.` })).toBeVisible();
      await expect(ownerPage.getByRole("listitem").filter({ hasText: invitee.email })).toHaveCount(0);
    });

    await ownerContext.close();
    await inviteeContext.close();
  });
}

/** A publication's id is its founder's user id (docs/teams.md): read from the session of its owner. */
async function ownerPublicationId(page: Page): Promise<string> {
  const session = await (await page.request.get("/api/auth/get-session")).json();
  return session.user.id as string;
}

const inviteePublicationId = ownerPublicationId;
