import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard, safeNextPath } from "~/components/auth/auth-card";
import { SignInForm } from "~/components/auth/sign-in-form";
import { redirectIfSignedIn } from "~/server/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  await redirectIfSignedIn(safeNextPath(next));
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          No account yet?{" "}
          <Link href="/sign-up" className="font-medium text-indigo-700 underline">
            Create one
          </Link>
        </>
      }
    >
      <SignInForm next={safeNextPath(next)} />
    </AuthCard>
  );
}
