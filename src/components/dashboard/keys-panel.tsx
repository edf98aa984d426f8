"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardTitle, EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { Field, Input } from "~/components/ui/input";
import { RadioGroup } from "~/components/ui/radio-group";
import { LocalTime } from "~/components/ui/local-time";
import { EXPIRATION_OPTIONS, type ExpirationOption } from "~/shared/key-expiration";
import type { ApiKeySummary } from "~/server/keys/list-api-keys";
import type { Permission } from "~/shared/permissions";
import { api, fieldErrors } from "~/trpc/react";
import { LoadError } from "./load-error";
import { DeactivateKey, EditKey, EndGrace, RollKey } from "./key-actions";
import { KEYS_HEADING_ID, KEYS_QUERY } from "./keys-client";
import { showNewKey } from "./new-key-dialog";

const EXPIRATION_LABELS: Record<ExpirationOption, string> = { never: "Never", "30d": "30 days", "90d": "90 days", "1y": "1 year" };
const PERMISSION_HINTS: Record<Permission, string> = {
  "read:blogs": "List and read blogs",
  "write:blogs": "Create and update blogs",
  "delete:blogs": "Delete blogs",
  "read:analytics": "Read usage analytics and newsletter progress",
  "read:subscribers": "List subscribers",
  "write:subscribers": "Add and delete subscribers",
  "read:audit": "Read the audit log",
};
const CREATE_FIELDS = ["name", "description", "permissions"] as const;

/** `permissions`: those the member's role may give a key (docs/teams.md, Keys), the only ones offered. */
export function KeysPanel({ permissions }: { permissions: Permission[] }) {
  const keys = useQuery(KEYS_QUERY);
  const [showInactive, setShowInactive] = useState(false);
  const inactive = keys.data?.filter((key) => key.status !== "active").length ?? 0;
  const shown = keys.data?.filter((key) => showInactive || key.status === "active") ?? [];
  return (
    <div className="space-y-6">
      <CreateKeyCard offered={permissions} />
      <section aria-labelledby={KEYS_HEADING_ID} className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={KEYS_HEADING_ID} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
            Your keys
          </h2>
          {keys.data && (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" className="size-4 accent-indigo-600" checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)} />
              Show deactivated, expired and rolled keys ({inactive})
            </label>
          )}
        </div>
        {keys.error ? (
          <LoadError what="your keys" error={keys.error} onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
        ) : !keys.data ? (
          <Loading label="Loading keys" className="space-y-2">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </Loading>
        ) : keys.data.length === 0 ? (
          <EmptyState title="No API keys yet">Create one above to call the API from your programs.</EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title="No active keys">Create one above, or show the deactivated, expired and rolled ones.</EmptyState>
        ) : (
          <ul aria-label="API keys" className="space-y-3">
            {shown.map((key) => (
              <KeyItem key={key.id} apiKey={key} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CreateKeyCard({ offered }: { offered: Permission[] }) {
  const queryClient = useQueryClient();
  const [permissions, setPermissions] = useState<Permission[]>(offered.includes("read:blogs") ? ["read:blogs"] : []);
  const [expires, setExpires] = useState<ExpirationOption>("never");
  const [errors, setErrors] = useState<Partial<Record<(typeof CREATE_FIELDS)[number] | "form", string>>>({});
  const permissionsErrorId = useId();

  const create = useMutation({
    mutationFn: (input: { name: string; description: string; permissions: Permission[]; expires: ExpirationOption }) =>
      api.keys.create.mutate(input),
    onSuccess: (result, input) => {
      showNewKey({ key: result.key, name: input.name.trim() });
      void queryClient.invalidateQueries({ queryKey: KEYS_QUERY.queryKey });
    },
    onError: (error) => setErrors(fieldErrors(error, CREATE_FIELDS)),
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
    create.mutate({ name, description: String(form.get("description") ?? ""), permissions, expires }, { onSuccess: () => formElement.reset() });
  }

  return (
    <Card>
      <CardTitle>Create a key</CardTitle>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2">
        <div>
          <Field label="Name" error={errors.name} hint="To recognise the key, e.g. the program that uses it.">
            {(props) => <Input {...props} name="name" maxLength={100} required />}
          </Field>
          <Field label="Description" hint="Optional." error={errors.description}>
            {(props) => <Input {...props} name="description" maxLength={500} />}
          </Field>
        </div>
        <div className="space-y-4">
          <CheckboxGroup
            legend="Permissions"
            options={offered}
            value={permissions}
            onChange={setPermissions}
            hint={(permission) => PERMISSION_HINTS[permission]}
            error={errors.permissions}
            errorId={permissionsErrorId}
          />
          <RadioGroup legend="Expires" name="expires" options={EXPIRATION_OPTIONS} labels={EXPIRATION_LABELS} value={expires} onChange={setExpires} />
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

const STATUS_TONE = { active: "green", expired: "amber", deactivated: "red", rolled: "neutral" } as const;

/** One key as a card: no table columns to overflow, at 1280 px or on a phone. */
function KeyItem({ apiKey: key }: { apiKey: ApiKeySummary }) {
  const headingId = `key-${key.id}`;
  const inGrace = key.status === "active" && key.graceEndsAt !== null;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs" data-testid={`key-row-${key.name}`} aria-labelledby={headingId}>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} tabIndex={-1} className="min-w-0 font-medium break-words text-slate-900 focus:outline-none">
              {key.name}
            </h3>
            <Badge tone={STATUS_TONE[key.status]}>{key.status}</Badge>
            {inGrace && key.graceEndsAt && (
              <Badge tone="amber">
                Rolled: works until <LocalTime iso={key.graceEndsAt} />
              </Badge>
            )}
            {key.expiringSoon && key.expiresAt && (
              <Badge tone="amber">
                Expiring soon: <LocalTime iso={key.expiresAt} />
              </Badge>
            )}
            {key.rotationDue && <Badge tone="amber">Over 90 days old: roll it</Badge>}
          </div>
          {key.description && <p className="text-sm break-words text-slate-600">{key.description}</p>}
          <p className="font-mono text-xs text-slate-700">{key.maskedKey}</p>
          <div className="flex flex-wrap gap-1">
            {key.permissions.map((p) => (
              <Badge key={p} tone="indigo" className="font-mono">
                {p}
              </Badge>
            ))}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-slate-600 sm:flex sm:flex-wrap sm:gap-x-4">
            <KeyDate label="Created" value={<LocalTime iso={key.createdAt} />} />
            <KeyDate label="Made by" value={key.createdBy ?? "a former member"} />
            <KeyDate label="Last used" value={key.lastUsedAt ? <LocalTime iso={key.lastUsedAt} /> : "Never"} />
            <KeyDate label="Expires" value={key.expiresAt ? <LocalTime iso={key.expiresAt} /> : "Never"} />
            {key.deactivatedAt && <KeyDate label="Deactivated" value={<LocalTime iso={key.deactivatedAt} />} />}
            {key.status === "rolled" && key.graceEndsAt && <KeyDate label="Stopped" value={<LocalTime iso={key.graceEndsAt} />} />}
          </dl>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 lg:justify-end">
          <Link href={`/dashboard/keys/${key.id}`} className={buttonClasses("ghost", "sm")} aria-label={`Activity of ${key.name}`}>
            Activity
          </Link>
          <EditKey apiKey={key} />
          {key.status === "active" && !key.rolledAt && <RollKey apiKey={key} />}
          {inGrace && <EndGrace apiKey={key} />}
          {key.status === "active" && <DeactivateKey apiKey={key} />}
        </div>
      </div>
    </li>
  );
}

function KeyDate({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="contents sm:flex sm:gap-1">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-700">{value}</dd>
    </div>
  );
}
