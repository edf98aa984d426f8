import "server-only";
import { DomainError } from "~/server/common/domain-error";
import { getSqlPool, type Db } from "~/server/db";
import { withinRecipientCap } from "~/server/email/recipient-cap";
import { personalize, renderNewsletter } from "./email";
import { readNewsletterSource } from "./post";
import { sendNewsletterMessage } from "./transport";

/**
 * "Send test email" (docs/newsletters.md, Sending): the post's email as subscribers would get it,
 * its subject prefixed "[Test] ", sent now to the owner's own account address, counted against
 * that address's cap (docs/security.md, Emails per address). Its unsubscribe link leads to the
 * page subscribers reach, with a secret no subscriber has. Answers the address it went to.
 */
const TEST_UNSUBSCRIBE_TOKEN = "test";

export async function sendNewsletterTest(db: Db, { userId, blogId }: { userId: string; blogId: string }): Promise<{ to: string }> {
  const owner = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  const blog = await db.blog.findFirst({ where: { id: blogId, userId }, select: { id: true } });
  if (!blog) throw new DomainError("RESOURCE_NOT_FOUND", "Blog not found", `no blog ${blogId} in this account`);
  const source = await readNewsletterSource(getSqlPool(), blogId);
  if (!source) throw new DomainError("RESOURCE_NOT_FOUND", "Blog not found", `no blog ${blogId} in this account`);
  if (!(await withinRecipientCap(owner.email))) {
    throw new DomainError("RATE_LIMIT_EXCEEDED", "Too many emails to this address", "the account's address has received as many emails as it may for now; try again later");
  }
  const rendered = await renderNewsletter(source.post, source.site);
  const message = personalize({ ...rendered, subject: `[Test] ${rendered.subject}` }, source.site.home, TEST_UNSUBSCRIBE_TOKEN);
  await sendNewsletterMessage({ ...message, to: owner.email, senderName: source.site.title });
  return { to: owner.email };
}
