"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { newPasswordProblem } from "~/shared/account-credentials";

export function ResetPasswordForm({ token }: { token: string }) {
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newPassword = String(new FormData(event.currentTarget).get("newPassword") ?? "");
    const problem = newPasswordProblem(newPassword);
    if (problem) return setError(problem);
    setPending(true);
    setError("");
    const { error } = await authClient.resetPassword({ newPassword, token });
    setPending(false);
    if (error) return setError(authErrorMessage(error));
    setDone(true);
  }

  if (done) {
    return (
      <p role="status" className="text-sm text-slate-700">
        Your password is changed and every session was signed out.{" "}
        <Link href="/sign-in" className="font-medium text-indigo-700 underline">
          Sign in
        </Link>{" "}
        with the new one.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-2" noValidate>
      <Field label="New password" hint="At least 8 characters. Setting it signs out every session." error={error}>
        {(props) => <Input {...props} name="newPassword" type="password" autoComplete="new-password" required />}
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        Set the new password
      </Button>
    </form>
  );
}
