"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "~/components/ui/button";

/** better-auth's refusals of a join, told plainly (the page has shown most of these before the click). */
function joinError(code: string | undefined): string {
  switch (code) {
    case "INVITATION_NOT_FOUND":
      return "This invitation no longer works: it was used, revoked or has expired. Reload the page.";
    case "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION":
      return "This invitation was sent to another address: sign in with it to join.";
    case "ALREADY_A_MEMBER":
      return "You are already a member of this publication.";
    case "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED":
      return "This publication has as many members as it may. Ask whoever invited you.";
    default:
      return "Joining failed. Please try again.";
  }
}

/**
 * Joins the invitation's publication (better-auth's /organization/accept-invitation, open for this
 * page: src/server/auth/endpoint-policies.ts), then opens the dashboard, now working in it.
 */
export function JoinButton({ invitationId, label }: { invitationId: string; label: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  return (
    <div className="space-y-2">
      <Button
        className="w-full"
        loading={pending}
        onClick={async () => {
          setPending(true);
          setError("");
          try {
            const response = await fetch("/api/auth/organization/accept-invitation", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ invitationId }),
            });
            if (response.ok) {
              router.replace("/dashboard");
              router.refresh();
              return;
            }
            const body = (await response.json().catch(() => null)) as { code?: string } | null;
            setError(joinError(body?.code));
          } catch {
            setError("The server could not be reached. Check your connection and try again.");
          }
          setPending(false);
        }}
      >
        {label}
      </Button>
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {error}
      </p>
    </div>
  );
}
