import type { Metadata } from "next";
import { AuthCard } from "~/components/auth/auth-card";
import { SignOutButton } from "~/components/auth/sign-out-button";

export const metadata: Metadata = { title: "Sign out" };

export default function SignOutPage() {
  return (
    <AuthCard title="Sign out" footer="Signing out ends this browser's session.">
      <SignOutButton className="w-full border border-slate-300" />
    </AuthCard>
  );
}
