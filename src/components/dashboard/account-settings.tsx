"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { asSentence } from "~/lib/format";
import { bioProblem, BIO_MAX_LENGTH, normalizedBio } from "~/shared/bio";
import { looksLikeEmail, newPasswordProblem, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/shared/account-credentials";
import { displayNameProblem, DISPLAY_NAME_MAX_LENGTH } from "~/shared/display-name";
import { handleProblem, HANDLE_MAX_LENGTH } from "~/shared/handle";
import { PasskeySettings } from "./passkey-settings";
import { SessionSettings } from "./session-settings";
import { SettingsCard, type AuthError, type Errors } from "./settings-card";
import { TwoFactorSettings } from "./two-factor-settings";


/**
 * The signed-in owner's account (better-auth's endpoints under /api/auth): name, handle and bio,
 * email, password, two-factor sign-in, passkeys, sessions, and deletion. Each part is its own
 * form with its own errors.
 */
export function AccountSettings({ user }: { user: { name: string; handle: string; bio: string; email: string; twoFactorEnabled: boolean } }) {
  return (
    <div className="space-y-6">
      <ProfileForm user={user} />
      <EmailForm email={user.email} />
      <PasswordForm />
      <TwoFactorSettings enabled={user.twoFactorEnabled} />
      <PasskeySettings twoFactorEnabled={user.twoFactorEnabled} />
      <SessionSettings />
      <DeleteAccount handle={user.handle} />
    </div>
  );
}

function ProfileForm({ user }: { user: { name: string; handle: string; bio: string } }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors<"name" | "handle" | "bio">>({});
  const [done, setDone] = useState("");
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const handle = String(form.get("handle") ?? "").trim();
    const bio = normalizedBio(String(form.get("bio") ?? ""));
    setDone("");
    const found: typeof errors = {};
    const nameProblem = name ? displayNameProblem(name) : null;
    if (nameProblem) found.name = asSentence(nameProblem);
    const problem = handleProblem(handle);
    if (problem) found.handle = problem;
    const bioIssue = bioProblem(bio);
    if (bioIssue) found.bio = asSentence(bioIssue);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const { error } = await authClient.updateUser({ name: name || handle, ...(handle !== user.handle && { handle }), ...(bio !== user.bio && { bio }) });
    setPending(false);
    if (error) {
      const message = authErrorMessage(error);
      const field = error.code === "INVALID_HANDLE" || error.code === "HANDLE_TAKEN" ? "handle" : error.code === "INVALID_NAME" ? "name" : error.code === "INVALID_BIO" ? "bio" : "form";
      return setErrors({ [field]: message });
    }
    setDone(handle !== user.handle ? `Saved. Your public address is now /${handle}.` : "Saved.");
    router.refresh();
  }
  return (
    <SettingsCard title="Profile" done={done} error={errors.form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-x-6 md:grid-cols-2">
        <Field label="Name" hint="Shown on your public pages." error={errors.name}>
          {(props) => <Input {...props} name="name" defaultValue={user.name} autoComplete="name" maxLength={DISPLAY_NAME_MAX_LENGTH} />}
        </Field>
        <Field label="Handle" hint="Your public address: /your-handle/blog-slug. Changing it changes every public link." error={errors.handle}>
          {(props) => <Input {...props} name="handle" defaultValue={user.handle} autoCapitalize="none" maxLength={HANDLE_MAX_LENGTH} />}
        </Field>
        <div className="md:col-span-2">
          <Field label="Bio" hint={`Shown with your name on the posts you write and on your author page. Plain text, up to ${BIO_MAX_LENGTH} characters.`} error={errors.bio}>
            {(props) => <Textarea {...props} name="bio" defaultValue={user.bio} rows={3} maxLength={BIO_MAX_LENGTH} />}
          </Field>
        </div>
        <div>
          <Button type="submit" loading={pending}>
            Save profile
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}

function EmailForm({ email }: { email: string }) {
  const [errors, setErrors] = useState<Errors<"email" | "password">>({});
  const [done, setDone] = useState("");
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const newEmail = String(form.get("email") ?? "").trim().toLowerCase();
    const password = String(form.get("password") ?? "");
    setDone("");
    const found: typeof errors = {};
    if (!looksLikeEmail(newEmail)) found.email = "Enter a valid email address.";
    else if (newEmail === email) found.email = "That is already your email.";
    if (!password) found.password = "Enter your password.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    // The password is checked by the app (src/server/auth/credential-guards.ts); better-auth's client passes it along.
    const { error } = await authClient.changeEmail({ newEmail, password } as Parameters<typeof authClient.changeEmail>[0]);
    setPending(false);
    if (error) return setErrors(error.code === "INVALID_PASSWORD" ? { password: "That is not your password." } : { form: authErrorMessage(error) });
    formElement.querySelector<HTMLInputElement>("input[name=password]")!.value = "";
    // better-auth answers alike whether or not the address is free (it reveals no accounts): the change waits for the link.
    setDone(`We sent a confirmation link to ${newEmail}. Your address changes when you follow it; until then, sign in with ${email}.`);
  }
  return (
    <SettingsCard title="Email" done={done} error={errors.form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-x-6 md:grid-cols-2">
        <Field label="Email" hint="You sign in with it. A new address is confirmed by a link sent to it; the change then signs out your other sessions." error={errors.email}>
          {(props) => <Input {...props} name="email" type="email" defaultValue={email} autoComplete="email" />}
        </Field>
        <Field label="Your password" error={errors.password}>
          {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" />}
        </Field>
        <div>
          <Button type="submit" loading={pending}>
            Change email
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}

function PasswordForm() {
  const [errors, setErrors] = useState<Errors<"currentPassword" | "newPassword">>({});
  const [done, setDone] = useState("");
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const currentPassword = String(form.get("currentPassword") ?? "");
    const newPassword = String(form.get("newPassword") ?? "");
    setDone("");
    const found: typeof errors = {};
    if (!currentPassword) found.currentPassword = "Enter your current password.";
    if (newPasswordProblem(newPassword)) found.newPassword = `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const { error } = await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: form.get("revokeOtherSessions") === "on" });
    setPending(false);
    if (error) return setErrors(passwordErrors(error));
    formElement.reset();
    setDone("Password changed.");
  }
  return (
    <SettingsCard title="Password" done={done} error={errors.form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-x-6 md:grid-cols-2">
        <Field label="Current password" error={errors.currentPassword}>
          {(props) => <Input {...props} name="currentPassword" type="password" autoComplete="current-password" />}
        </Field>
        <Field label="New password" hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`} error={errors.newPassword}>
          {(props) => <Input {...props} name="newPassword" type="password" autoComplete="new-password" />}
        </Field>
        <label className="flex items-center gap-2 text-sm text-slate-700 md:col-span-2">
          <input type="checkbox" name="revokeOtherSessions" defaultChecked className="size-4 accent-indigo-600" />
          Sign out my other sessions
        </label>
        <div className="mt-3">
          <Button type="submit" loading={pending}>
            Change password
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}

function passwordErrors(error: AuthError): Errors<"currentPassword" | "newPassword"> {
  const message = authErrorMessage(error);
  if (error?.code === "INVALID_PASSWORD") return { currentPassword: "That is not your current password." };
  if (error?.code === "PASSWORD_TOO_SHORT" || error?.code === "PASSWORD_TOO_LONG") return { newPassword: message };
  return { form: message };
}

function DeleteAccount({ handle }: { handle: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors<"confirmation" | "password">>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const confirmation = String(form.get("confirmation") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const found: typeof errors = {};
    if (confirmation !== handle) found.confirmation = `Type your handle, ${handle}, to confirm.`;
    if (!password) found.password = "Enter your password.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const { error } = await authClient.deleteUser({ password });
    setPending(false);
    if (error) return setErrors(error.code === "INVALID_PASSWORD" ? { password: "That is not your password." } : { form: authErrorMessage(error) });
    router.replace("/");
    router.refresh();
  }
  return (
    <SettingsCard title="Delete account" error={errors.form} danger>
      <p className="text-sm text-slate-600">
        Deletes the account for good, and with it every blog, API key (they stop working at once), usage record and logged request. It
        can&apos;t be undone.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-x-6 md:grid-cols-2">
        <Field label="Type your handle to confirm" error={errors.confirmation}>
          {(props) => <Input {...props} name="confirmation" autoComplete="off" autoCapitalize="none" />}
        </Field>
        <Field label="Password" error={errors.password}>
          {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" />}
        </Field>
        <div>
          <Button type="submit" variant="danger" loading={pending}>
            Delete my account
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
