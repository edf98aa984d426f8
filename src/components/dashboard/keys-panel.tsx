"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardTitle, EmptyState, Skeleton } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { formatDate, formatDateTime } from "~/lib/format";
import { EXPIRATION_OPTIONS, type ExpirationOption } from "~/shared/key-expiration";
import type { ApiKeySummary } from "~/server/keys/list-api-keys";
import { PERMISSIONS, type Permission } from "~/shared/permissions";
import { api, errorMessage } from "~/trpc/react";

const EXPIRATION_LABELS: Record<ExpirationOption, string> = { never: "Never", "30d": "30 days", "90d": "90 days", "1y": "1 year" };
const PERMISSION_HINTS: Record<Permission, string> = {
  "read:blogs": "List and read blogs",
  "write:blogs": "Create and update blogs",
  "delete:blogs": "Delete blogs",
  "read:analytics": "Read usage analytics",
};

export function KeysPanel() {
  const keys = useQuery({ queryKey: ["keys.list"], queryFn: () => api.keys.list.query() });
  return (
    <div className="space-y-6">
      <CreateKeyCard />
      <section aria-labelledby="keys-heading" className="space-y-3">
        <h2 id="keys-heading" className="text-base font-semibold text-slate-900">
          Your keys
        </h2>
        {keys.error ? (
          <p role="alert" className="text-sm text-red-600">
            {errorMessage(keys.error)}
          </p>
        ) : !keys.data ? (
          <div aria-busy="true" aria-label="Loading keys" className="space-y-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : keys.data.length === 0 ? (
          <EmptyState title="No API keys yet">Create one above to call the API from your programs.</EmptyState>
        ) : (
          <KeysTable keys={keys.data} />
        )}
      </section>
    </div>
  );
}

function CreateKeyCard() {
  const queryClient = useQueryClient();
  const [permissions, setPermissions] = useState<Permission[]>(["read:blogs"]);
  const [expires, setExpires] = useState<ExpirationOption>("never");
  const [errors, setErrors] = useState<{ name?: string; permissions?: string; form?: string }>({});
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);

  const create = useMutation({
    mutationFn: (input: { name: string; description: string; permissions: Permission[]; expires: ExpirationOption }) =>
      api.keys.create.mutate(input),
    onSuccess: (result, input) => {
      setCreated({ key: result.key, name: input.name });
      void queryClient.invalidateQueries({ queryKey: ["keys.list"] });
    },
    onError: (error) => setErrors({ form: errorMessage(error) }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get("name") ?? "").trim();
    const found: typeof errors = {};
    if (!name) found.name = "name is required";
    if (permissions.length === 0) found.permissions = "at least one permission is required";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { name, description: String(form.get("description") ?? ""), permissions, expires },
      { onSuccess: () => formElement.reset() },
    );
  }

  if (created) return <NewKeyCard created={created} onDone={() => setCreated(null)} />;

  return (
    <Card>
      <CardTitle>Create a key</CardTitle>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2">
        <div>
          <Field label="Name" error={errors.name} hint="To recognise the key, e.g. the program that uses it.">
            {(props) => <Input {...props} name="name" maxLength={100} required />}
          </Field>
          <Field label="Description" hint="Optional.">
            {(props) => <Input {...props} name="description" maxLength={500} />}
          </Field>
        </div>
        <div className="space-y-4">
          <fieldset aria-describedby="permissions-error">
            <legend className="text-sm font-medium text-slate-800">Permissions</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {PERMISSIONS.map((permission) => (
                <label key={permission} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-indigo-600"
                    checked={permissions.includes(permission)}
                    onChange={(e) =>
                      setPermissions((current) =>
                        e.target.checked ? [...current, permission] : current.filter((p) => p !== permission),
                      )
                    }
                  />
                  <span>
                    <span className="font-mono text-xs font-medium text-slate-900">{permission}</span>
                    <span className="block text-xs text-slate-500">{PERMISSION_HINTS[permission]}</span>
                  </span>
                </label>
              ))}
            </div>
            <p id="permissions-error" className="mt-1 min-h-4 text-xs text-red-600">
              {errors.permissions ?? ""}
            </p>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Expires</legend>
            <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
              {EXPIRATION_OPTIONS.map((option) => (
                <label key={option} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="expires"
                    value={option}
                    className="size-4 accent-indigo-600"
                    checked={expires === option}
                    onChange={() => setExpires(option)}
                  />
                  {EXPIRATION_LABELS[option]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
          <p role="alert" className="text-sm text-red-600">
            {errors.form ?? ""}
          </p>
        </div>
      </form>
    </Card>
  );
}

function NewKeyCard({ created, onDone }: { created: { key: string; name: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Card className="border-amber-300 bg-amber-50">
      <CardTitle>Your new key “{created.name}”</CardTitle>
      <p className="mt-2 text-sm font-medium text-amber-900" role="status">
        Copy this key now: it is shown only once and can&apos;t be shown again. Store it somewhere safe.
      </p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="new-api-key" className="sr-only">
          New API key
        </label>
        <input
          id="new-api-key"
          readOnly
          value={created.key}
          data-testid="new-api-key"
          onFocus={(e) => e.currentTarget.select()}
          // 15px: at 14px Chromium on Linux drops the underscore of DejaVu Sans Mono inside inputs.
          className="h-10 min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-3 font-mono text-[15px]"
        />
        <Button
          variant="secondary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(created.key);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? "Copied" : "Copy key"}
        </Button>
      </div>
      <Button className="mt-4" onClick={onDone}>
        I have stored the key
      </Button>
    </Card>
  );
}

const STATUS_TONE = { active: "green", expired: "amber", deactivated: "red", rolled: "neutral" } as const;

function KeysTable({ keys }: { keys: ApiKeySummary[] }) {
  return (
    <Table label="API keys">
      <THead>
        <tr>
          <Th>Name</Th>
          <Th>Key</Th>
          <Th>Permissions</Th>
          <Th>Created</Th>
          <Th>Last used</Th>
          <Th>Expires</Th>
          <Th>Status</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <TBody>
        {keys.map((key) => (
          <Tr key={key.id} data-testid={`key-row-${key.name}`}>
            <Td className="max-w-48">
              <span className="block truncate font-medium text-slate-900">{key.name}</span>
              {key.description && <span className="block truncate text-xs text-slate-500">{key.description}</span>}
            </Td>
            <Td className="font-mono text-xs whitespace-nowrap">{key.maskedKey}</Td>
            <Td>
              <div className="flex min-w-40 flex-wrap gap-1">
                {key.permissions.map((p) => (
                  <Badge key={p} tone="indigo" className="font-mono">
                    {p}
                  </Badge>
                ))}
              </div>
            </Td>
            <Td className="whitespace-nowrap text-slate-600">{formatDate(key.createdAt)}</Td>
            <Td className="whitespace-nowrap text-slate-600">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</Td>
            <Td className="whitespace-nowrap text-slate-600">{key.expiresAt ? formatDate(key.expiresAt) : "Never"}</Td>
            <Td>
              <div className="flex flex-col items-start gap-1">
                <Badge tone={STATUS_TONE[key.status]}>{key.status}</Badge>
                {key.rotationDue && (
                  <Badge tone="amber" className="whitespace-nowrap">
                    Rotate: over 90 days old
                  </Badge>
                )}
              </div>
            </Td>
            <Td className="text-right">{key.status !== "deactivated" && <DeactivateKey id={key.id} name={key.name} />}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function DeactivateKey({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const deactivate = useMutation({
    mutationFn: () => api.keys.deactivate.mutate({ id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["keys.list"] });
      setOpen(false);
    },
    onError: (e) => setError(errorMessage(e)),
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError("");
      }}
      trigger={
        <Button variant="secondary" size="sm" aria-label={`Deactivate ${name}`}>
          Deactivate
        </Button>
      }
      title={`Deactivate “${name}”?`}
      description={
        <>
          <p>
            Applications using this key stop working at once: their very next request is refused. Deactivation is final;
            to use the API again they need a new key.
          </p>
          {error && (
            <p role="alert" className="mt-2 text-red-600">
              {error}
            </p>
          )}
        </>
      }
      confirmLabel="Deactivate key"
      busy={deactivate.isPending}
      onConfirm={() => deactivate.mutate()}
    />
  );
}
