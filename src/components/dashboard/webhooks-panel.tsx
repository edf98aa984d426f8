"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardTitle, EmptyState, Skeleton } from "~/components/ui/card";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { LocalTime } from "~/components/ui/local-time";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "~/shared/webhook-events";
import { api, errorMessage, fieldErrors } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";

type Endpoint = Awaited<ReturnType<typeof api.webhooks.list.query>>[number];
type Delivery = Awaited<ReturnType<typeof api.webhooks.deliveries.query>>[number];

const LIST_KEY = trpc.webhooks.list.queryKey();

export function WebhooksPanel() {
  const endpoints = useQuery({ queryKey: LIST_KEY, queryFn: () => api.webhooks.list.query() });
  return (
    <div className="space-y-6">
      <CreateEndpointCard />
      <section aria-labelledby="endpoints-heading" className="space-y-3">
        <h2 id="endpoints-heading" className="text-base font-semibold text-slate-900">
          Your endpoints
        </h2>
        {endpoints.error ? (
          <LoadError what="your endpoints" error={endpoints.error} onRetry={() => void endpoints.refetch()} retrying={endpoints.isFetching} />
        ) : !endpoints.data ? (
          <Skeleton className="h-24 w-full" />
        ) : endpoints.data.length === 0 ? (
          <EmptyState title="No endpoints yet">Add one above to be told of every change.</EmptyState>
        ) : (
          endpoints.data.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
        )}
      </section>
    </div>
  );
}

/** The fields whose refusals show under them (the rest under the form). */
const CREATE_FIELDS = ["url", "description"] as const;

function CreateEndpointCard() {
  const queryClient = useQueryClient();
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>(["blog.created", "blog.updated", "blog.published", "blog.deleted"]);
  const [errors, setErrors] = useState<Partial<Record<(typeof CREATE_FIELDS)[number] | "form", string>>>({});
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (input: { url: string; description: string; eventTypes: WebhookEventType[] }) => api.webhooks.create.mutate(input),
    onSuccess: (created) => {
      setSecret(created.secret);
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (e) => setErrors(fieldErrors(e, CREATE_FIELDS)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setErrors({});
    create.mutate({ url: String(form.get("url") ?? "").trim(), description: String(form.get("description") ?? ""), eventTypes });
  }

  if (secret) return <SecretCard title="Your new endpoint's signing secret" secret={secret} onDone={() => setSecret(null)} />;
  return (
    <Card>
      <CardTitle>Add an endpoint</CardTitle>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2">
        <div>
          <Field label="URL" hint="https, reachable from the internet." error={errors.url}>
            {(props) => <Input {...props} name="url" type="url" placeholder="https://example.com/webhooks" required />}
          </Field>
          <Field label="Description" hint="Optional." error={errors.description}>
            {(props) => <Input {...props} name="description" maxLength={500} />}
          </Field>
        </div>
        <EventTypeChoice value={eventTypes} onChange={setEventTypes} />
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" loading={create.isPending}>
            Add endpoint
          </Button>
          <p role="alert" className="text-sm text-red-600">
            {errors.form}
          </p>
        </div>
      </form>
    </Card>
  );
}

function EventTypeChoice({ value, onChange }: { value: WebhookEventType[]; onChange: (next: WebhookEventType[]) => void }) {
  return <CheckboxGroup legend="Events" options={WEBHOOK_EVENT_TYPES} value={value} onChange={onChange} />;
}

function SecretCard({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <Card className="border-amber-300 bg-amber-50">
      <CardTitle>{title}</CardTitle>
      <p className="mt-2 text-sm font-medium text-amber-900" role="status">
        Copy it now: it is shown only once. Your receiver verifies each request with it (docs/webhooks.md).
      </p>
      <input
        readOnly
        aria-label="Signing secret"
        value={secret}
        data-testid="webhook-secret"
        onFocus={(e) => e.currentTarget.select()}
        className="mt-4 h-10 w-full rounded-md border border-amber-300 bg-white px-3 font-mono text-[15px]"
      />
      <Button className="mt-4" onClick={onDone}>
        I have stored the secret
      </Button>
    </Card>
  );
}

function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [showDeliveries, setShowDeliveries] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: LIST_KEY });
  const onError = (e: unknown) => setError(errorMessage(e));
  const setEnabled = useMutation({ mutationFn: (enabled: boolean) => api.webhooks.setEnabled.mutate({ id: endpoint.id, enabled }), onSuccess: refresh, onError });
  const roll = useMutation({ mutationFn: () => api.webhooks.rollSecret.mutate({ id: endpoint.id }), onSuccess: (r) => setSecret(r.secret), onError });
  const sendTest = useMutation({
    mutationFn: () => api.webhooks.sendTest.mutate({ id: endpoint.id }),
    onSuccess: () => {
      setNotice("Test event queued.");
      setShowDeliveries(true);
      void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ id: endpoint.id }) });
    },
    onError,
  });

  if (secret) return <SecretCard title="The endpoint's new signing secret" secret={secret} onDone={() => setSecret(null)} />;
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-mono text-sm font-medium text-slate-900">{endpoint.url}</p>
          {endpoint.description && <p className="text-xs text-slate-500">{endpoint.description}</p>}
          <div className="mt-2 flex flex-wrap gap-1">
            {endpoint.eventTypes.map((type) => (
              <Badge key={type} tone="indigo" className="font-mono">
                {type}
              </Badge>
            ))}
          </div>
        </div>
        <Badge tone={endpoint.enabled ? "green" : "red"}>{endpoint.enabled ? "enabled" : "disabled"}</Badge>
      </div>
      {endpoint.disabledReason && <p className="mt-2 text-sm text-red-700">{endpoint.disabledReason}</p>}
      {endpoint.enabled && endpoint.failingSince && (
        <p className="mt-2 text-sm text-amber-800">
          Failing since <LocalTime iso={endpoint.failingSince} />: it is disabled after 5 days without a successful delivery.
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Button size="sm" variant="secondary" loading={setEnabled.isPending} onClick={() => setEnabled.mutate(!endpoint.enabled)}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <Button size="sm" variant="secondary" loading={sendTest.isPending} disabled={!endpoint.enabled} onClick={() => sendTest.mutate()}>
          Send test event
        </Button>
        <Button size="sm" variant="secondary" loading={roll.isPending} onClick={() => roll.mutate()}>
          Roll secret
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setShowDeliveries((shown) => !shown)} aria-expanded={showDeliveries}>
          {showDeliveries ? "Hide deliveries" : "Recent deliveries"}
        </Button>
        <DeleteEndpoint endpoint={endpoint} />
        <p role="status" className="text-sm text-slate-600">
          {notice}
        </p>
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      </div>
      {showDeliveries && <Deliveries endpointId={endpoint.id} />}
    </Card>
  );
}

function DeleteEndpoint({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.webhooks.delete.mutate({ id: endpoint.id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      setOpen(false);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="sm">
          Delete
        </Button>
      }
      title="Delete this endpoint?"
      description={<p>It receives nothing more, and its deliveries are deleted with it.</p>}
      confirmLabel="Delete endpoint"
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
    />
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery({
    queryKey: trpc.webhooks.deliveries.queryKey({ id: endpointId }),
    queryFn: () => api.webhooks.deliveries.query({ id: endpointId }),
    refetchInterval: 5_000,
  });
  if (deliveries.error) return <LoadError what="the deliveries" error={deliveries.error} onRetry={() => void deliveries.refetch()} retrying={deliveries.isFetching} />;
  if (!deliveries.data) return <Skeleton className="mt-4 h-16 w-full" />;
  if (deliveries.data.length === 0) return <p className="mt-4 text-sm text-slate-600">No deliveries in the last 30 days.</p>;
  return (
    <div className="mt-4">
      <Table label="Recent deliveries">
        <THead>
          <tr>
            <Th>Event</Th>
            <Th>Status</Th>
            <Th>Attempts</Th>
            <Th>Last response</Th>
            <Th>Next retry</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {deliveries.data.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} endpointId={endpointId} />
          ))}
        </TBody>
      </Table>
    </div>
  );
}

const DELIVERY_TONE = { succeeded: "green", pending: "amber", failed: "red" } as const;

function DeliveryRow({ delivery, endpointId }: { delivery: Delivery; endpointId: string }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => api.webhooks.resend.mutate({ deliveryId: delivery.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ id: endpointId }) }),
  });
  const last = delivery.attempts.at(-1);
  return (
    <Tr>
      <Td>
        <span className="block font-mono text-xs text-slate-900">{delivery.event.type}</span>
        <span className="block font-mono text-xs text-slate-500">{delivery.event.id}</span>
        <span className="block text-xs text-slate-500">
          <LocalTime iso={delivery.createdAt} seconds />
        </span>
      </Td>
      <Td>
        <Badge tone={DELIVERY_TONE[delivery.status as keyof typeof DELIVERY_TONE] ?? "neutral"}>{delivery.status}</Badge>
      </Td>
      <Td>
        <details>
          <summary className="cursor-pointer text-sm">{delivery.attemptCount}</summary>
          <ol className="mt-1 space-y-1 text-xs">
            {delivery.attempts.map((attempt) => (
              <li key={attempt.attempt}>
                #{attempt.attempt} <LocalTime iso={attempt.startedAt} seconds />: {attempt.responseStatus ?? attempt.error} in {attempt.durationMs} ms
                {attempt.responseBody && <pre className="mt-1 max-h-32 overflow-auto rounded bg-slate-50 p-1 whitespace-pre-wrap">{attempt.responseBody}</pre>}
              </li>
            ))}
          </ol>
        </details>
      </Td>
      <Td className="text-sm whitespace-nowrap">{last ? `${last.responseStatus ?? last.error} · ${last.durationMs} ms` : "—"}</Td>
      <Td className="text-sm whitespace-nowrap">{delivery.nextAttemptAt ? <LocalTime iso={delivery.nextAttemptAt} seconds /> : "—"}</Td>
      <Td className="text-right">
        <Button size="sm" variant="secondary" loading={resend.isPending} onClick={() => resend.mutate()}>
          Resend
        </Button>
      </Td>
    </Tr>
  );
}
