"use client";

import { useState } from "react";
import { Button } from "~/components/ui/button";
import { api, errorMessage } from "~/trpc/react";

/** Joins the invitation's publication (members.acceptInvitation), then opens the dashboard, now working in it. */
export function JoinButton({ invitationId, label }: { invitationId: string; label: string }) {
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
            await api.members.acceptInvitation.mutate({ invitationId });
            window.location.assign("/dashboard");
          } catch (e) {
            setError(errorMessage(e));
            setPending(false);
          }
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
