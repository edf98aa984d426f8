"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { authClient, authErrorMessage } from "~/lib/auth-client";

/** Signing in: the password, then the second factor when the account has it on; or a passkey alone. */
type Step = "password" | "totp" | "backup-code";

export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [step, setStep] = useState<Step>("password");
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);

  const signedIn = () => {
    router.replace(next);
    router.refresh();
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const { data, error } = await authClient.signIn.email({
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (error) return setError(authErrorMessage(error));
    // The password was right; the account also asks for a code (better-auth's twoFactor plugin).
    if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) return setStep("totp");
    setPending(true);
    signedIn();
  }

  async function onPasskey() {
    setPasskeyPending(true);
    setError("");
    const result = await authClient.signIn.passkey();
    setPasskeyPending(false);
    if (result?.error) setError(authErrorMessage(result.error));
    else signedIn();
  }

  if (step !== "password") {
    return (
      <SecondFactorForm
        step={step}
        onSwitch={() => {
          setError("");
          setStep(step === "totp" ? "backup-code" : "totp");
        }}
        onRestart={() => {
          setError("");
          setStep("password");
        }}
        onSignedIn={signedIn}
      />
    );
  }

  return (
    <div className="space-y-4">
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
      <p className="flex items-center gap-3 text-xs text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">or</p>
      <Button variant="secondary" className="w-full" loading={passkeyPending} onClick={onPasskey}>
        Sign in with a passkey
      </Button>
    </div>
  );
}

/** The second step: a code from the authenticator app, or one of the backup codes. */
function SecondFactorForm({ step, onSwitch, onRestart, onSignedIn }: { step: "totp" | "backup-code"; onSwitch: () => void; onRestart: () => void; onSignedIn: () => void }) {
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    const code = step === "totp" ? typed.replace(/\s/g, "") : typed;
    if (step === "totp" && !/^\d{6}$/.test(code)) return setError("Enter the 6-digit code your authenticator app shows.");
    if (!code) return setError("Enter one of your backup codes.");
    setPending(true);
    setError("");
    const { error } = step === "totp" ? await authClient.twoFactor.verifyTotp({ code }) : await authClient.twoFactor.verifyBackupCode({ code });
    if (error) {
      setPending(false);
      return setError(authErrorMessage(error));
    }
    onSignedIn();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2" noValidate>
      <p className="text-sm text-slate-600">
        {step === "totp"
          ? "Your account has two-factor sign-in on. Enter the code your authenticator app shows now."
          : "Enter one of the backup codes you saved when you turned on two-factor sign-in. Each works once."}
      </p>
      {/* Remounted per step: the field starts empty. */}
      <Field key={step} label={step === "totp" ? "6-digit code" : "Backup code"}>
        {(props) => (
          <Input
            {...props}
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="none"
            inputMode={step === "totp" ? "numeric" : "text"}
            maxLength={step === "totp" ? 7 : 20}
            autoFocus
            required
          />
        )}
      </Field>
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {error}
      </p>
      <Button type="submit" className="w-full" loading={pending}>
        Verify
      </Button>
      <div className="flex flex-wrap justify-between gap-2 pt-2">
        <Button variant="ghost" size="sm" onClick={onSwitch}>
          {step === "totp" ? "Use a backup code instead" : "Use your authenticator app instead"}
        </Button>
        <Button variant="ghost" size="sm" onClick={onRestart}>
          Start over
        </Button>
      </div>
    </form>
  );
}
