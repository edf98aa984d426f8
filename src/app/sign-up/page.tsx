import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "~/components/auth/auth-card";
import { SignUpForm } from "~/components/auth/sign-up-form";
import { redirectIfSignedIn } from "~/app/session";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  await redirectIfSignedIn("/dashboard");
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{" "}
          <Link href="/sign-in" className="font-medium text-indigo-700 underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm />
    </AuthCard>
  );
}
