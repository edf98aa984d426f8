"use client";

import { useEffect, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { PASSKEY_NAME_MAX_LENGTH } from "~/shared/passkey-name";
import { SettingsCard, type AuthError, type Errors } from "./settings-card";

type PasskeyRow = { id: string; name?: string | null; createdAt: Date | string };

const nameProblem = (name: string) => (name && name.length <= PASSKEY_NAME_MAX_LENGTH ? null : `Give it a name of 1 to ${PASSKEY_NAME_MAX_LENGTH} characters.`);

/**
 * The owner's passkeys (@better-auth/passkey): added from this browser under a name of the owner's,
 * with the account password (and a code while two-factor sign-in is on, since a passkey then
 * stands for both), listed with when they were added, renamed or removed. Any of them signs in
 * without a password.
 */
export function PasskeySettings({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const [passkeys, setPasskeys] = useState<PasskeyRow[] | null>(null);
  const [done, setDone] = useState("");
  const [error, setError] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Errors<"name" | "password" | "code">>({});
  const [adding, setAdding] = useState(false);

  // Bumped to list the passkeys again after a change.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    let current = true;
    void authClient.passkey.listUserPasskeys().then(({ data, error }) => {
      if (!current) return;
      if (error) setError(authErrorMessage(error));
      else setPasskeys(data as PasskeyRow[]);
    });
    return () => {
      current = false;
    };
  }, [version]);

  async function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get("name") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const code = String(form.get("code") ?? "").trim();
    setDone("");
    setError("");
    const found: typeof fieldErrors = {};
    const problem = nameProblem(name);
    if (problem) found.name = problem;
    if (!password) found.password = "Enter your password.";
    if (twoFactorEnabled && !code) found.code = "Enter a code from your app, or a backup code.";
    setFieldErrors(found);
    if (Object.keys(found).length > 0) return;
    setAdding(true);
    // The password (and code) first, so that a wrong one leaves no credential on this device.
    const authorized = await authClient.$fetch("/passkey/authorize-registration", { method: "POST", body: { password, ...(twoFactorEnabled && { code }) } });
    const result = authorized.error ? authorized : await authClient.passkey.addPasskey({ name });
    setAdding(false);
    const failure: AuthError = result?.error ?? null;
    if (failure?.code === "INVALID_PASSWORD") return setFieldErrors({ password: "That is not your password." });
    if (failure?.code === "INVALID_CODE") return setFieldErrors({ code: "That code is not right." });
    if (failure) return setError(authErrorMessage(failure));
    formElement.reset();
    setDone(`Passkey "${name}" added. You can sign in with it.`);
    reload();
  }

  const report = (message: string, error: Parameters<typeof authErrorMessage>[0]) => {
    setDone(error ? "" : message);
    setError(error ? authErrorMessage(error) : "");
    reload();
  };

  return (
    <SettingsCard title="Passkeys" done={done} error={error}>
      <p className="text-sm text-slate-600">
        Sign in with your fingerprint, face or device PIN instead of your password. Add one on each device you use.
      </p>
      {passkeys === null ? (
        <p className="mt-3 text-sm text-slate-500">Loading passkeys…</p>
      ) : passkeys.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No passkeys yet.</p>
      ) : (
        <ul aria-label="Passkeys" className="mt-3 divide-y divide-slate-200 rounded-md border border-slate-200">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} onChanged={report} />
          ))}
        </ul>
      )}
      <form onSubmit={onAdd} noValidate className="mt-4 grid gap-x-6 md:grid-cols-2">
        <Field label="Name of the new passkey" hint="So you can tell them apart, e.g. “Work laptop”." error={fieldErrors.name}>
          {(props) => <Input {...props} name="name" autoComplete="off" maxLength={PASSKEY_NAME_MAX_LENGTH} />}
        </Field>
        <Field label="Account password" error={fieldErrors.password}>
          {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" />}
        </Field>
        {twoFactorEnabled && (
          <Field label="Code" hint="From your authenticator app, or a backup code." error={fieldErrors.code}>
            {(props) => <Input {...props} name="code" autoComplete="one-time-code" autoCapitalize="none" />}
          </Field>
        )}
        <div className="md:col-span-2">
          <Button type="submit" loading={adding}>
            Add a passkey
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}

function PasskeyItem({ passkey, onChanged }: { passkey: PasskeyRow; onChanged: (message: string, error: Parameters<typeof authErrorMessage>[0]) => void }) {
  const name = passkey.name || "Unnamed passkey";
  const [renaming, setRenaming] = useState(false);
  const [renameError, setRenameError] = useState("");
  const [pending, setPending] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);

  async function onRename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newName = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    const problem = nameProblem(newName);
    setRenameError(problem ?? "");
    if (problem) return;
    setPending(true);
    const { error } = await authClient.passkey.updatePasskey({ id: passkey.id, name: newName });
    setPending(false);
    if (!error) setRenaming(false);
    onChanged(`Renamed to "${newName}".`, error);
  }

  return (
    <li className="px-3 py-3">
      {renaming ? (
        <form onSubmit={onRename} noValidate className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <Field label={`New name for ${name}`} error={renameError}>
              {(props) => <Input {...props} name="name" defaultValue={passkey.name ?? ""} autoComplete="off" maxLength={PASSKEY_NAME_MAX_LENGTH} autoFocus />}
            </Field>
          </div>
          <div className="mb-6 flex gap-2">
            <Button type="submit" size="sm" loading={pending}>
              Save
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setRenaming(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0 text-sm">
            <p className="font-medium break-words text-slate-900">{name}</p>
            <p className="text-slate-600">
              Added <LocalTime iso={new Date(passkey.createdAt).toISOString()} />
            </p>
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" aria-label={`Rename ${name}`} onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="secondary" size="sm" aria-label={`Remove ${name}`}>
                  Remove
                </Button>
              }
              title={`Remove the passkey “${name}”?`}
              description="You will no longer be able to sign in with it. Your password and other passkeys keep working."
              confirmLabel="Remove passkey"
              busy={removing}
              open={confirmOpen}
              onOpenChange={setConfirmOpen}
              onConfirm={async () => {
                setRemoving(true);
                const { error } = await authClient.passkey.deletePasskey({ id: passkey.id });
                setRemoving(false);
                setConfirmOpen(false);
                onChanged(`Passkey "${name}" removed.`, error);
              }}
            />
          </div>
        </div>
      )}
    </li>
  );
}
