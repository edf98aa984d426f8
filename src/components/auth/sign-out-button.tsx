"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { authClient } from "~/lib/auth-client";

/** `then`: where to go once signed out (the sign-in page unless told; an invitation's page sends back to itself). */
export function SignOutButton({ className, then = "/sign-in", label = "Sign out" }: { className?: string; then?: string; label?: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      className={className}
      loading={pending}
      onClick={async () => {
        setPending(true);
        await authClient.signOut();
        router.replace(then);
        router.refresh();
      }}
    >
      {label}
    </Button>
  );
}
