"use client";

import { useRouter } from "next/navigation";
import QRCode from "qrcode";
import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { SettingsCard, type AuthError, type Errors } from "./settings-card";

/**
 * Where the card is: off; set up (the QR code and secret shown, waiting for the app's first code);
 * backup codes shown once (after the setup or a regeneration); on.
 */
type Step =
  | { kind: "off" }
  | { kind: "scan"; totpURI: string; secret: string; qrCode: string; backupCodes: string[] }
  | { kind: "backup-codes"; backupCodes: string[] }
  | { kind: "on" };

const typedCode = (value: FormDataEntryValue | null) => String(value ?? "").trim();

/**
 * Two-factor sign-in with an authenticator app (better-auth's twoFactor plugin): turned on with the
 * password, confirmed with the app's first code, then asked at every sign-in (docs/security.md).
 */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [step, setStep] = useState<Step>({ kind: enabled ? "on" : "off" });
  const [done, setDone] = useState("");
  const [formError, setFormError] = useState("");
  const finish = (message: string, next: Step) => {
    setStep(next);
    setDone(message);
    setFormError("");
    router.refresh();
  };
  const shared = { setDone, setFormError };
  return (
    <SettingsCard title="Two-factor sign-in" done={done} error={formError}>
      {step.kind === "off" && (
        <EnableForm
          {...shared}
          onStarted={(scan) => {
            setDone("");
            setStep({ kind: "scan", ...scan });
          }}
        />
      )}
      {step.kind === "scan" && (
        <ConfirmForm
          {...shared}
          step={step}
          onConfirmed={() => finish("Two-factor sign-in is on.", { kind: "backup-codes", backupCodes: step.backupCodes })}
          // Still off: the secret not confirmed is never asked for, and a new setup replaces it.
          onCancel={() => setStep({ kind: "off" })}
        />
      )}
      {step.kind === "backup-codes" && <BackupCodes codes={step.backupCodes} onDone={() => setStep({ kind: "on" })} />}
      {step.kind === "on" && (
        <div className="space-y-6">
          <p className="text-sm text-slate-600">
            On. Every sign-in with your password also asks for a code from your authenticator app, or one of your backup codes.
          </p>
          <RegenerateBackupCodesForm {...shared} onGenerated={(backupCodes) => finish("New backup codes made; the old ones no longer work.", { kind: "backup-codes", backupCodes })} />
          <DisableForm {...shared} onDisabled={() => finish("Two-factor sign-in is off.", { kind: "off" })} />
        </div>
      )}
    </SettingsCard>
  );
}

type SharedProps = { setDone: (message: string) => void; setFormError: (message: string) => void };

/**
 * A form taking only the account password for one action (`act`, which answers better-auth's
 * error, or null once done): a wrong password is told at the field, anything else for the card.
 */
function PasswordOnlyForm({
  setDone,
  setFormError,
  act,
  submitLabel,
  variant,
  labelledBy,
  children,
}: SharedProps & { act: (password: string) => Promise<AuthError>; submitLabel: string; variant?: "secondary"; labelledBy?: string; children?: ReactNode }) {
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setDone("");
    setFormError("");
    if (!password) return setError("Enter your password.");
    setError("");
    setPending(true);
    const failure = await act(password);
    setPending(false);
    if (failure) passwordOrFormError(failure, setError, setFormError);
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={labelledBy} className="grid gap-x-6 md:grid-cols-2">
      {children}
      <Field label="Account password" error={error}>
        {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" />}
      </Field>
      <div className="md:col-span-2">
        <Button type="submit" variant={variant} loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function EnableForm({ onStarted, ...shared }: SharedProps & { onStarted: (scan: Omit<Extract<Step, { kind: "scan" }>, "kind">) => void }) {
  async function enable(password: string): Promise<AuthError> {
    const { data, error } = await authClient.twoFactor.enable({ password });
    if (error || !data || !("totpURI" in data) || !data.totpURI) return error ?? { message: "Two-factor sign-in could not be set up. Try again." };
    const secret = new URL(data.totpURI).searchParams.get("secret") ?? "";
    // Drawn here, from the URI in hand: the secret goes to no other service.
    const svg = await QRCode.toString(data.totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    onStarted({ totpURI: data.totpURI, secret, qrCode: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`, backupCodes: data.backupCodes ?? [] });
    return null;
  }
  return (
    <PasswordOnlyForm {...shared} act={enable} submitLabel="Set up two-factor sign-in">
      <p className="mb-3 text-sm text-slate-600 md:col-span-2">
        Off. Turn it on to ask for a code from an authenticator app (such as 1Password, Google Authenticator or Aegis) after your password at every
        sign-in.
      </p>
    </PasswordOnlyForm>
  );
}

function ConfirmForm({ step, setFormError, onConfirmed, onCancel }: SharedProps & { step: Extract<Step, { kind: "scan" }>; onConfirmed: () => void; onCancel: () => void }) {
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = typedCode(new FormData(event.currentTarget).get("code")).replace(/\s/g, "");
    setFormError("");
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code your app shows.");
    setError("");
    setPending(true);
    const { error } = await authClient.twoFactor.verifyTotp({ code });
    setPending(false);
    if (error) return error.code === "INVALID_CODE" ? setError(authErrorMessage(error)) : setFormError(authErrorMessage(error));
    onConfirmed();
  }
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan this QR code with your authenticator app, or enter the key below by hand.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-6">
        {/* eslint-disable-next-line @next/next/no-img-element -- a data URL drawn in the browser: nothing for Next to optimise */}
        <img src={step.qrCode} alt="QR code to add Blog Manager to your authenticator app" width={176} height={176} className="rounded-md border border-slate-200" />
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-medium text-slate-800" id="totp-secret-label">
            Setup key
          </p>
          <p aria-labelledby="totp-secret-label" className="font-mono text-sm break-all text-slate-900">
            {step.secret.match(/.{1,4}/g)?.join(" ")}
          </p>
          <CopyButton text={step.secret} label="Copy key" announce="Setup key copied" />
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-x-6 md:grid-cols-2">
        <Field label="Code from the app" error={error}>
          {(props) => <Input {...props} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} />}
        </Field>
        <div className="flex gap-2 md:col-span-2">
          <Button type="submit" loading={pending}>
            Turn on
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The backup codes, shown once: to copy or download before leaving. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n");
  function download() {
    const url = URL.createObjectURL(new Blob([`Blog Manager backup codes: each works once.\n\n${text}\n`], { type: "text/plain" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: "blog-manager-backup-codes.txt" });
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">Your backup codes</h3>
      <p className="text-sm text-slate-600">
        Keep them somewhere safe: each one signs you in once if you lose your authenticator app. They are shown only now.
      </p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 font-mono text-sm text-slate-900 sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={text} label="Copy codes" announce="Backup codes copied" />
        <Button variant="secondary" onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}

function RegenerateBackupCodesForm({ onGenerated, ...shared }: SharedProps & { onGenerated: (codes: string[]) => void }) {
  async function regenerate(password: string): Promise<AuthError> {
    const { data, error } = await authClient.twoFactor.generateBackupCodes({ password });
    if (error || !data) return error ?? { message: "No new codes were made. Try again." };
    onGenerated(data.backupCodes);
    return null;
  }
  return (
    <PasswordOnlyForm {...shared} act={regenerate} submitLabel="Make new backup codes" variant="secondary" labelledBy="new-backup-codes">
      <h3 id="new-backup-codes" className="text-sm font-semibold text-slate-900 md:col-span-2">
        New backup codes
      </h3>
      <p className="mb-2 text-sm text-slate-600 md:col-span-2">Used some, or lost them? Make ten new ones; the old ones stop working.</p>
    </PasswordOnlyForm>
  );
}

function DisableForm({ setDone, setFormError, onDisabled }: SharedProps & { onDisabled: () => void }) {
  const [errors, setErrors] = useState<Errors<"password" | "code">>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const code = typedCode(form.get("code"));
    setDone("");
    setFormError("");
    const found: typeof errors = {};
    if (!password) found.password = "Enter your password.";
    if (!code) found.code = "Enter a code from your app, or a backup code.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    // The code is checked by the app (src/server/auth/credential-guards.ts); better-auth's client passes it along.
    const { error } = await authClient.twoFactor.disable({ password, code } as Parameters<typeof authClient.twoFactor.disable>[0]);
    setPending(false);
    if (error?.code === "INVALID_CODE") return setErrors({ code: "That code is not right." });
    if (error) return passwordOrFormError(error, (password) => setErrors({ password }), setFormError);
    onDisabled();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="turn-off-two-factor" className="grid gap-x-6 md:grid-cols-2">
      <h3 id="turn-off-two-factor" className="text-sm font-semibold text-slate-900 md:col-span-2">
        Turn off
      </h3>
      <p className="mb-2 text-sm text-slate-600 md:col-span-2">Takes your password and a code from your app (or a backup code).</p>
      <Field label="Account password" error={errors.password}>
        {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" />}
      </Field>
      <Field label="Code" error={errors.code}>
        {(props) => <Input {...props} name="code" autoComplete="one-time-code" autoCapitalize="none" />}
      </Field>
      <div className="md:col-span-2">
        <Button type="submit" variant="danger" loading={pending}>
          Turn off two-factor sign-in
        </Button>
      </div>
    </form>
  );
}

function passwordOrFormError(error: AuthError, setPasswordError: (message: string) => void, setFormError: (message: string) => void) {
  if (error?.code === "INVALID_PASSWORD") setPasswordError("That is not your password.");
  else setFormError(authErrorMessage(error));
}
