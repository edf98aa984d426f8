import type { Metadata } from "next";
import { AuthCard } from "~/components/auth/auth-card";
import { SignOutButton } from "~/components/auth/sign-out-button";

export const metadata: Metadata = { title: "No publication" };

/** Where the dashboard sends a person who belongs to no publication any more (docs/teams.md). */
export default function NoPublicationPage() {
  return (
    <AuthCard title="You belong to no publication" footer="An invitation to a publication, once accepted, brings you back to its dashboard.">
      <p className="mb-4 text-sm text-slate-700">
        You transferred your publication and left it, or were removed from every publication you belonged to. Ask a publication&apos;s owner or an
        administrator to invite you again.
      </p>
      <SignOutButton className="w-full border border-slate-300" />
    </AuthCard>
  );
}
