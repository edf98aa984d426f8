"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";

export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const { error } = await authClient.signIn.email({
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    if (error) {
      setError(authErrorMessage(error));
      setPending(false);
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2" noValidate>
      <Field label="Email">
        {(props) => <Input {...props} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Field label="Password">
        {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" required />}
      </Field>
      <p className="text-right text-sm">
        <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
          Forgot password?
        </Link>
      </p>
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {error}
      </p>
      <Button type="submit" className="w-full" loading={pending}>
        Sign in
      </Button>
    </form>
  );
}
