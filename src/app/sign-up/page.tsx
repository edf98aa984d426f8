import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "~/components/auth/auth-card";
import { SignUpForm } from "~/components/auth/sign-up-form";
import { safeNextPath } from "@blogmgr/server";
import { redirectIfSignedIn } from "~/app/session";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  await redirectIfSignedIn(next);
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{" "}
          <Link href={next === "/dashboard" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`} className="font-medium text-indigo-700 underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm next={next} />
    </AuthCard>
  );
}
