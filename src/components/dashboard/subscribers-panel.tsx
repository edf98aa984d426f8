"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useRef, useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, EmptyState, Skeleton } from "~/components/ui/card";
import { ConfirmDialog, DIALOG_CONTENT, DIALOG_OVERLAY, FormDialogActions } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { Pagination } from "~/components/ui/pagination";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { SUBSCRIBER_NAME_MAX_LENGTH, SUBSCRIBER_STATUSES, type SubscriberStatus, type SubscriberView } from "~/shared/subscribers";
import { api, errorMessage, fieldErrors } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";

const PAGE_SIZE = 20;
/** The import's file bound (src/server/subscribers/csv.ts), checked here before the file is sent. */
const MAX_IMPORT_MB = 5;

const STATUS_LABELS: Record<SubscriberStatus, string> = { pending: "Pending", active: "Active", unsubscribed: "Unsubscribed", bounced: "Bounced" };
const STATUS_TONES = { pending: "amber", active: "green", unsubscribed: "neutral", bounced: "red" } as const;

type ImportReport = Awaited<ReturnType<typeof api.subscribers.import.mutate>>;

/** Every subscriber query (counts and pages): what a change makes stale. */
const refreshSubscribers = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([trpc.subscribers.list.queryKey(), trpc.subscribers.counts.queryKey()].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

/**
 * The Subscribers page (docs/dashboard.md, Subscribers): counts by status, the list with search,
 * status filter and pages; add one address, import a CSV export from Substack, Ghost or Mailchimp,
 * export the list, erase an address.
 */
export function SubscribersPanel() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SubscriberStatus | undefined>();
  const [searchText, setSearchText] = useState("");
  const q = useDeferredValue(searchText.trim());
  const [deleting, setDeleting] = useState<SubscriberView | null>(null);
  const [notice, setNotice] = useState("");
  const queryClient = useQueryClient();
  const input = { page, limit: PAGE_SIZE, status, q: q || undefined };
  const list = useQuery({
    queryKey: trpc.subscribers.list.queryKey(input),
    queryFn: () => api.subscribers.list.query(input),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.subscribers.delete.mutate({ subscriberId: id }),
    onSuccess: () => {
      setDeleting(null);
      void refreshSubscribers(queryClient);
    },
  });
  const data = list.data?.data;
  return (
    <div className="space-y-6">
      <SubscriberCounts />
      <div className="space-y-2">
        <div className="flex flex-wrap gap-3">
          <AddSubscriberDialog onAdded={setNotice} />
          <ImportDialog />
          <ExportButton />
        </div>
        <p role="status" className="text-sm text-slate-700 empty:hidden">
          {notice}
        </p>
      </div>
      <section aria-labelledby="subscribers-heading" className="space-y-4">
        <h2 id="subscribers-heading" tabIndex={-1} className="text-base font-semibold text-slate-900">
          Your subscribers
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="subscriber-search" className="sr-only">
            Search subscribers
          </label>
          <Input
            id="subscriber-search"
            type="search"
            placeholder="Search by address or name"
            value={searchText}
            onChange={(event) => {
              setSearchText(event.target.value);
              setPage(1);
            }}
            className="max-w-xs"
          />
          <span className="flex items-center gap-2 text-sm text-slate-700">
            <label htmlFor="subscriber-status">Status</label>
            <select
              id="subscriber-status"
              value={status ?? ""}
              onChange={(event) => {
                setStatus(SUBSCRIBER_STATUSES.find((s) => s === event.target.value));
                setPage(1);
              }}
              className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <option value="">All</option>
              {SUBSCRIBER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </span>
          <span className="text-sm text-slate-600" aria-live="polite">
            {data ? `${data.pagination.total.toLocaleString("en-US")} matching` : ""}
          </span>
        </div>
        {list.error ? (
          <LoadError what="your subscribers" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
        ) : !data ? (
          <Skeleton className="h-40 w-full" />
        ) : data.subscribers.length === 0 ? (
          <EmptyState title={q || status ? "No subscriber matches" : "No subscribers yet"}>
            {q || status ? "Try another search or status." : "Readers subscribe with the form on your publication's pages; you can also add or import addresses."}
          </EmptyState>
        ) : (
          <>
            <Table label="Subscribers">
              <THead>
                <tr>
                  <Th>Address</Th>
                  <Th className="hidden sm:table-cell">Name</Th>
                  <Th>Status</Th>
                  <Th className="hidden sm:table-cell">Source</Th>
                  <Th className="hidden sm:table-cell">Added</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </THead>
              <TBody>
                {data.subscribers.map((subscriber) => (
                  <Tr key={subscriber.id}>
                    {/* On a phone the name goes under the address, and source and date are left out: the row fits without scrolling. */}
                    <Td className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {subscriber.email}
                      {subscriber.name && <span className="block font-normal text-slate-700 sm:hidden">{subscriber.name}</span>}
                    </Td>
                    <Td className="hidden text-slate-700 sm:table-cell">{subscriber.name}</Td>
                    <Td>
                      <Badge tone={STATUS_TONES[subscriber.status]}>{STATUS_LABELS[subscriber.status]}</Badge>
                    </Td>
                    <Td className="hidden text-slate-700 sm:table-cell">{subscriber.source}</Td>
                    <Td className="hidden whitespace-nowrap text-slate-700 sm:table-cell">
                      <LocalTime iso={subscriber.createdAt} />
                    </Td>
                    <Td className="text-right">
                      <Button variant="secondary" size="sm" onClick={() => setDeleting(subscriber)} aria-label={`Delete ${subscriber.email}`}>
                        Delete
                      </Button>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            <Pagination pagination={data.pagination} onStep={(step) => setPage(data.pagination.page + step)} />
          </>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title="Delete this subscriber?"
        description={
          <>
            <p>
              <strong className="break-all">{deleting?.email}</strong> is erased: the address, the name and the record of what was sent to it. It
              will get no more posts. To keep it on file as not wanting emails, leave it; readers unsubscribe with the link in every email.
            </p>
            {remove.error && (
              <p role="alert" className="mt-2 text-red-600">
                {errorMessage(remove.error)}
              </p>
            )}
          </>
        }
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          document.getElementById("subscribers-heading")?.focus();
        }}
      />
    </div>
  );
}

function SubscriberCounts() {
  const counts = useQuery({ queryKey: trpc.subscribers.counts.queryKey(), queryFn: () => api.subscribers.counts.query() });
  if (counts.error) return <LoadError what="your subscriber counts" error={counts.error} onRetry={() => void counts.refetch()} retrying={counts.isFetching} />;
  if (!counts.data) return <Skeleton className="h-20 w-full" />;
  const { counts: c, quota } = counts.data;
  return (
    <Card>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        {SUBSCRIBER_STATUSES.map((s) => (
          <div key={s}>
            <dt className="text-sm text-slate-600">{STATUS_LABELS[s]}</dt>
            <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{c[s].toLocaleString("en-US")}</dd>
          </div>
        ))}
        <div>
          <dt className="text-sm text-slate-600">All</dt>
          <dd className="text-2xl font-semibold text-slate-900 tabular-nums">
            {c.total.toLocaleString("en-US")}{" "}
            <span className="block text-sm font-normal text-slate-600 sm:inline">of {quota.toLocaleString("en-US")} on your plan</span>
          </dd>
        </div>
      </dl>
    </Card>
  );
}

const ADD_FIELDS = ["email", "name"] as const;

/** `onAdded` gets the sentence saying what became of the address. */
function AddSubscriberDialog({ onAdded }: { onAdded: (notice: string) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<(typeof ADD_FIELDS)[number] | "form", string>>>({});
  const add = useMutation({
    mutationFn: (input: { email: string; name: string }) => api.subscribers.add.mutate(input),
    onSuccess: ({ subscriber, created }) => {
      void refreshSubscribers(queryClient);
      // An address already there comes back as it is (docs/newsletters.md): say so rather than "added".
      onAdded(created ? `Added ${subscriber.email}.` : `${subscriber.email} was already on your list (${STATUS_LABELS[subscriber.status].toLowerCase()}); it was left as it is.`);
      setOpen(false);
    },
    onError: (e) => setErrors(fieldErrors(e, ADD_FIELDS)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setErrors({});
    add.mutate({ email: String(form.get("email") ?? ""), name: String(form.get("name") ?? "") });
  }

  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
        if (next) onAdded("");
      }}
    >
      <DialogPrimitive.Trigger asChild>
        <Button>Add subscriber</Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Add a subscriber</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            Add only someone who asked for your posts: they are active at once, with no confirmation email.
          </DialogPrimitive.Description>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-2">
            <Field label="Email address" error={errors.email}>
              {(props) => <Input {...props} name="email" type="email" autoComplete="off" required />}
            </Field>
            <Field label="Name" hint="Optional." error={errors.name}>
              {(props) => <Input {...props} name="name" maxLength={SUBSCRIBER_NAME_MAX_LENGTH} autoComplete="off" />}
            </Field>
            <p role="alert" className="text-sm text-red-600">
              {errors.form}
            </p>
            <FormDialogActions submitLabel="Add" busy={add.isPending} />
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

const LAYOUT_NAMES = { substack: "Substack", ghost: "Ghost", mailchimp: "Mailchimp", plain: "a plain list" } as const;

function ImportDialog() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const [report, setReport] = useState<ImportReport | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const importFile = useMutation({
    // Alone, to its own path: the file may be larger than a batch may carry (src/shared/dashboard-limits.ts).
    mutationFn: (csv: string) => api.subscribers.import.mutate({ csv }, { context: { alone: true } }),
    onSuccess: (answer) => {
      setReport(answer);
      void refreshSubscribers(queryClient);
    },
    onError: (e) => setError(errorMessage(e)),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    const file = fileRef.current?.files?.[0];
    if (!file) return setError("Choose a CSV file.");
    if (file.size > MAX_IMPORT_MB * 1024 * 1024) return setError(`The file is larger than ${MAX_IMPORT_MB} MB: split it.`);
    importFile.mutate(await file.text());
  }

  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError("");
        setReport(null);
        importFile.reset();
      }}
    >
      <DialogPrimitive.Trigger asChild>
        <Button variant="secondary">Import CSV</Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={`${DIALOG_CONTENT} max-h-[calc(100dvh-2rem)] overflow-y-auto`}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Import subscribers</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            A CSV export from Substack, Ghost or Mailchimp, or a file of <code>email,name</code> lines (at most {MAX_IMPORT_MB} MB). Import only readers who
            asked for your posts: they are active at once. Those the export marks unsubscribed are kept as unsubscribed, never emailed; addresses
            already on your list are left as they are.
          </DialogPrimitive.Description>
          {report ? (
            <ImportResult report={report} />
          ) : (
            <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-4 space-y-3">
              <Field label="CSV file" error={error}>
                {(props) => <input {...props} ref={fileRef} type="file" accept=".csv,text/csv" className="block w-full text-sm text-slate-700" />}
              </Field>
              <FormDialogActions submitLabel="Import" busy={importFile.isPending} />
            </form>
          )}
          {report && (
            <div className="mt-6 flex justify-end">
              <DialogPrimitive.Close asChild>
                <Button>Done</Button>
              </DialogPrimitive.Close>
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** The most skipped rows listed; the count covers them all. */
const SKIPPED_SHOWN = 200;

function ImportResult({ report }: { report: ImportReport }) {
  const skipped = report.skipped.length;
  return (
    <div role="status" className="mt-4 space-y-3 text-sm text-slate-700" data-testid="import-report">
      <p>Read as {LAYOUT_NAMES[report.layout]} export.</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          <strong>{report.added.toLocaleString("en-US")}</strong> added as active
        </li>
        {report.addedUnsubscribed > 0 && (
          <li>
            <strong>{report.addedUnsubscribed.toLocaleString("en-US")}</strong> added as unsubscribed (so marked in the export)
          </li>
        )}
        <li>
          <strong>{report.alreadyThere.toLocaleString("en-US")}</strong> already on your list, left as they were
        </li>
        <li>
          <strong>{skipped.toLocaleString("en-US")}</strong> skipped
        </li>
      </ul>
      {skipped > 0 && (
        <Table label="Skipped rows">
          <THead>
            <tr>
              <Th>Line</Th>
              <Th>Address</Th>
              <Th>Why</Th>
            </tr>
          </THead>
          <TBody>
            {report.skipped.slice(0, SKIPPED_SHOWN).map((row) => (
              <Tr key={row.line}>
                <Td className="tabular-nums">{row.line}</Td>
                <Td className="break-all">{row.email || "(empty)"}</Td>
                <Td>{row.reason}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {skipped > SKIPPED_SHOWN && <p>The first {SKIPPED_SHOWN} skipped rows are listed.</p>}
    </div>
  );
}

function ExportButton() {
  const [error, setError] = useState("");
  const exportList = useMutation({
    mutationFn: () => api.subscribers.export.query(),
    onSuccess: ({ csv }) => {
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `subscribers-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(url);
    },
    onError: (e) => setError(errorMessage(e)),
  });
  return (
    <span className="flex items-center gap-3">
      <Button variant="secondary" loading={exportList.isPending} onClick={() => exportList.mutate()}>
        Export CSV
      </Button>
      <span role="alert" className="text-sm text-red-600">
        {error}
      </span>
    </span>
  );
}
