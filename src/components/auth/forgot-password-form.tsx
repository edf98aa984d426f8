"use client";

import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { looksLikeEmail } from "~/shared/account-credentials";

export function ForgotPasswordForm() {
  const [error, setError] = useState("");
  const [sentTo, setSentTo] = useState("");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!looksLikeEmail(email)) return setError("Enter a valid email address.");
    setPending(true);
    setError("");
    const { error } = await authClient.requestPasswordReset({ email });
    setPending(false);
    if (error) return setError(authErrorMessage(error));
    setSentTo(email);
  }

  if (sentTo) {
    return (
      <p role="status" className="text-sm text-slate-700">
        If {sentTo} has an account, we sent it a link to choose a new password. The link is valid for 1 hour.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-2" noValidate>
      <p className="text-sm text-slate-600">Enter the email you sign in with: we will send you a link to choose a new password.</p>
      <Field label="Email" error={error}>
        {(props) => <Input {...props} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Button type="submit" className="w-full" loading={pending}>
        Send the link
      </Button>
    </form>
  );
}
