import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "~/components/auth/auth-card";
import { SignInForm } from "~/components/auth/sign-in-form";
import { safeNextPath } from "@blogmgr/server";
import { redirectIfSignedIn } from "~/app/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  await redirectIfSignedIn(next);
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          No account yet?{" "}
          <Link href={next === "/dashboard" ? "/sign-up" : `/sign-up?next=${encodeURIComponent(next)}`} className="font-medium text-indigo-700 underline">
            Create one
          </Link>
        </>
      }
    >
      <SignInForm next={next} />
    </AuthCard>
  );
}
