"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { asSentence } from "~/lib/format";
import { displayNameProblem, DISPLAY_NAME_MAX_LENGTH } from "~/shared/display-name";
import { looksLikeEmail, newPasswordProblem } from "~/shared/account-credentials";
import { handleProblem, HANDLE_MAX_LENGTH } from "~/shared/handle";

type Errors = Partial<Record<"name" | "email" | "password" | "handle" | "form", string>>;

/** The same rules the server applies, checked first so the form can say which field is wrong. */
function check(values: { name: string; email: string; password: string; handle: string }): Errors {
  const errors: Errors = {};
  // Optional: left empty, the handle is the name.
  const nameProblem = values.name ? displayNameProblem(values.name) : null;
  if (nameProblem) errors.name = asSentence(nameProblem);
  if (!looksLikeEmail(values.email)) errors.email = "Enter a valid email address.";
  const passwordProblem = newPasswordProblem(values.password);
  if (passwordProblem) errors.password = passwordProblem;
  const problem = handleProblem(values.handle);
  if (problem) errors.handle = asSentence(problem);
  return errors;
}

/** `next`: where to go once signed in (an invitation's page: src/app/invitations/[id]/page.tsx), already checked by safeNextPath. */
export function SignUpForm({ next = "/dashboard" }: { next?: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = {
      name: String(form.get("name") ?? "").trim(),
      email: String(form.get("email") ?? "").trim(),
      password: String(form.get("password") ?? ""),
      handle: String(form.get("handle") ?? "").trim(),
    };
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    // Sign-up answers alike for a new address and one that has an account (docs/security.md, No
    // account enumeration) and signs no one in: signing in with the same details does.
    const { error } = await authClient.signUp.email({ ...values, name: values.name || values.handle, callbackURL: "/dashboard?verified=1" });
    if (error) {
      const message = authErrorMessage(error);
      const code = (error as { code?: string }).code;
      setErrors(
        code === "INVALID_HANDLE" || code === "HANDLE_TAKEN"
          ? { handle: message }
          : code === "INVALID_NAME"
            ? { name: message }
            : { form: message },
      );
      setPending(false);
      return;
    }
    const signIn = await authClient.signIn.email({ email: values.email, password: values.password });
    if (signIn.error) {
      setErrors({
        form:
          signIn.error.status === 429
            ? `Check ${values.email}: we sent you an email. Too many sign-in attempts from here just now: wait a minute, then sign in.`
            : `Check ${values.email}: we sent you an email. If you already have an account, sign in or reset your password.`,
      });
      setPending(false);
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2" noValidate>
      <Field label="Name" hint="Shown on your public pages; optional." error={errors.name}>
        {(props) => <Input {...props} name="name" autoComplete="name" maxLength={DISPLAY_NAME_MAX_LENGTH} />}
      </Field>
      <Field label="Handle" hint="Your public address: /your-handle/blog-slug. Lowercase letters, digits and hyphens." error={errors.handle}>
        {(props) => (
          <Input {...props} name="handle" autoComplete="username" maxLength={HANDLE_MAX_LENGTH} autoCapitalize="none" required />
        )}
      </Field>
      <Field label="Email" error={errors.email}>
        {(props) => <Input {...props} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Field label="Password" hint="At least 8 characters." error={errors.password}>
        {(props) => <Input {...props} name="password" type="password" autoComplete="new-password" required />}
      </Field>
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {errors.form ?? ""}
      </p>
      <Button type="submit" className="w-full" loading={pending}>
        Create account
      </Button>
    </form>
  );
}
