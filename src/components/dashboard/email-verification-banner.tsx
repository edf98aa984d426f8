"use client";

import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { authClient, authErrorMessage } from "~/lib/auth-client";

/**
 * Above every dashboard page: what a followed email link did (its landing page's query, set in
 * src/server/email/account-emails.ts), and until the owner's address is confirmed, a reminder
 * with a way to send the link again (docs/security.md, Email verification).
 */
export function EmailVerificationBanner({ email, verified }: { email: string; verified: boolean }) {
  // Null only outside the App Router, which never renders the dashboard.
  const query = useSearchParams() ?? new URLSearchParams();
  const [resent, setResent] = useState("");
  const [resendError, setResendError] = useState("");
  const [pending, setPending] = useState(false);
  const linkFailed = query.has("error") && (query.has("verified") || query.has("email-changed"));

  async function resend() {
    setPending(true);
    setResendError("");
    const { error } = await authClient.sendVerificationEmail({ email, callbackURL: "/dashboard?verified=1" });
    setPending(false);
    if (error) return setResendError(authErrorMessage(error));
    setResent(`Sent. Check ${email} for the new link.`);
  }

  return (
    <>
      {linkFailed ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          That link has expired or was already used.{verified ? "" : " Send a new one below."}
        </p>
      ) : query.get("verified") === "1" && verified ? (
        <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          Your email address is confirmed.
        </p>
      ) : query.get("email-changed") === "1" ? (
        <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          Your new email address, {email}, is confirmed. Your other sessions were signed out.
        </p>
      ) : null}
      {!verified && (
        <section aria-label="Email confirmation" className="mb-4 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="min-w-0 flex-1">
            Confirm your email address: we sent a link to <strong className="break-all">{email}</strong>. Until then you can write blogs, but not create API
            keys or webhook endpoints.
          </p>
          <Button variant="secondary" size="sm" loading={pending} onClick={resend}>
            Resend the link
          </Button>
          <p role="status" className="w-full empty:hidden">
            {resent}
          </p>
          {resendError && (
            <p role="alert" className="w-full text-red-700">
              {resendError}
            </p>
          )}
        </section>
      )}
    </>
  );
}
