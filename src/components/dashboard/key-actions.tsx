"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { RadioGroup } from "~/components/ui/radio-group";
import { LocalTime } from "~/components/ui/local-time";
import { DEFAULT_GRACE, GRACE_OPTIONS, type GraceOption } from "~/shared/key-grace";
import type { ApiKeySummary } from "~/server/keys/list-api-keys";
import { api, errorMessage, fieldErrors } from "~/trpc/react";
import { KEYS_HEADING_ID, KEYS_QUERY } from "./keys-client";
import { showNewKey } from "./new-key-dialog";

const GRACE_LABELS: Record<GraceOption, string> = { "0": "None: stop it now", "1h": "1 hour", "24h": "24 hours", "7d": "7 days" };
const EDIT_FIELDS = ["name", "description"] as const;

/**
 * A key action behind a confirmation dialog: `run` is the mutation; on success the list is
 * refreshed and the dialog closed. When the action removes its own button (deactivating, rolling),
 * `focusAfter` names the element focus moves to, instead of falling to the page body.
 */
function useKeyAction<T>(run: () => Promise<T>, onDone?: (result: T) => void) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const done = useRef(false);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      // Closed before the list is refreshed: the refresh may remove this dialog's key (and the
      // dialog with it), and focus must have moved by then.
      done.current = true;
      setOpen(false);
      onDone?.(result);
      void queryClient.invalidateQueries({ queryKey: KEYS_QUERY.queryKey });
    },
    onError: (e) => setError(errorMessage(e)),
  });
  return {
    mutation,
    error,
    setError,
    dialog: {
      open,
      onOpenChange: (next: boolean) => {
        setOpen(next);
        setError("");
        if (next) done.current = false;
      },
      busy: mutation.isPending,
    },
    /** Radix's onCloseAutoFocus: after a success, focus goes to `focusAfter` (the trigger may be gone). */
    returnFocus: (focusAfter: string) => (event: Event) => {
      if (!done.current) return;
      const target = document.getElementById(focusAfter);
      if (!target) return;
      event.preventDefault();
      target.focus();
    },
  };
}

function ErrorLine({ error }: { error: string }) {
  return error ? (
    <p role="alert" className="mt-2 text-red-600">
      {error}
    </p>
  ) : null;
}

export function DeactivateKey({ apiKey: key }: { apiKey: ApiKeySummary }) {
  const action = useKeyAction(() => api.keys.deactivate.mutate({ id: key.id }));
  return (
    <ConfirmDialog
      {...action.dialog}
      // The list hides deactivated keys by default: the list's heading is what stays.
      onCloseAutoFocus={action.returnFocus(KEYS_HEADING_ID)}
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Deactivate ${key.name}`}>
          Deactivate
        </Button>
      }
      title={`Deactivate “${key.name}”?`}
      description={
        <>
          <p>
            Applications using this key stop working at once: their very next request is refused. Deactivation is final; to use the API
            again they need a new key.
          </p>
          <ErrorLine error={action.error} />
        </>
      }
      confirmLabel="Deactivate key"
      onConfirm={() => action.mutation.mutate()}
    />
  );
}

export function RollKey({ apiKey: key }: { apiKey: ApiKeySummary }) {
  const [grace, setGrace] = useState<GraceOption>(DEFAULT_GRACE);
  const action = useKeyAction(
    () => api.keys.roll.mutate({ id: key.id, grace }),
    (rolled) => showNewKey({ key: rolled.key, name: key.name, graceEndsAt: rolled.graceEndsAt, returnFocusTo: `key-${key.id}` }),
  );
  return (
    <ConfirmDialog
      {...action.dialog}
      confirmVariant="primary"
      trigger={
        <Button variant={key.rotationDue ? "primary" : "secondary"} size="sm" aria-label={`Roll ${key.name}`}>
          Roll
        </Button>
      }
      title={`Roll “${key.name}”?`}
      description={
        <>
          <p>A new key with the same name, description, permissions and expiration policy is created and shown once.</p>
          <div className="mt-3">
            <RadioGroup
              legend="The current key keeps working for"
              name={`grace-${key.id}`}
              options={GRACE_OPTIONS}
              labels={GRACE_LABELS}
              value={grace}
              onChange={setGrace}
              className="grid gap-2 sm:grid-cols-2"
            />
          </div>
          <ErrorLine error={action.error} />
        </>
      }
      confirmLabel="Roll key"
      onConfirm={() => action.mutation.mutate()}
    />
  );
}

export function EndGrace({ apiKey: key }: { apiKey: ApiKeySummary }) {
  const action = useKeyAction(() => api.keys.endGrace.mutate({ id: key.id }));
  return (
    <ConfirmDialog
      {...action.dialog}
      onCloseAutoFocus={action.returnFocus(KEYS_HEADING_ID)}
      trigger={
        <Button variant="secondary" size="sm" aria-label={`End the grace of ${key.name}`}>
          End grace now
        </Button>
      }
      title={`Stop the rolled key “${key.name}” now?`}
      description={
        <>
          <p>
            It would keep working until {key.graceEndsAt && <LocalTime iso={key.graceEndsAt} />}. Its next request is refused; its replacement is not affected.
          </p>
          <ErrorLine error={action.error} />
        </>
      }
      confirmLabel="Stop the old key"
      onConfirm={() => action.mutation.mutate()}
    />
  );
}

export function EditKey({ apiKey: key }: { apiKey: ApiKeySummary }) {
  const [values, setValues] = useState({ name: key.name, description: key.description });
  const [errors, setErrors] = useState<Partial<Record<(typeof EDIT_FIELDS)[number] | "form", string>>>({});
  const action = useKeyAction(() => api.keys.update.mutate({ id: key.id, ...values }));
  const formId = `edit-key-${key.id}`;
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    setErrors({});
    action.mutation.mutate(undefined, { onError: (error) => setErrors(fieldErrors(error, EDIT_FIELDS)) });
  };
  return (
    <ConfirmDialog
      {...action.dialog}
      onOpenChange={(next) => {
        action.dialog.onOpenChange(next);
        setValues({ name: key.name, description: key.description });
        setErrors({});
      }}
      confirmVariant="primary"
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Edit ${key.name}`}>
          Edit
        </Button>
      }
      title={`Edit “${key.name}”`}
      description={
        <form id={formId} onSubmit={save} noValidate className="space-y-1">
          <Field label="Name" error={errors.name}>
            {(props) => <Input {...props} value={values.name} maxLength={100} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} />}
          </Field>
          <Field label="Description" error={errors.description} hint="Optional.">
            {(props) => (
              <Input {...props} value={values.description} maxLength={500} onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))} />
            )}
          </Field>
          <ErrorLine error={errors.form ?? ""} />
        </form>
      }
      confirmLabel="Save"
      onConfirm={() => save()}
    />
  );
}
