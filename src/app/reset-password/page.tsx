import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "~/components/auth/auth-card";
import { ResetPasswordForm } from "~/components/auth/reset-password-form";

export const metadata: Metadata = { title: "Choose a new password" };

/** The emailed reset link's page (src/server/email/account-emails.ts): the token is checked when the form is sent. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <>
          Link expired?{" "}
          <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
            Ask for a new one
          </Link>
        </>
      }
    >
      {typeof token === "string" && token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="text-sm text-red-600">
          This page needs the link from your email. Ask for a new one if you no longer have it.
        </p>
      )}
    </AuthCard>
  );
}
