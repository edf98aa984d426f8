"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, EmptyState, Skeleton } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { Pagination } from "~/components/ui/pagination";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { SUBSCRIBER_STATUSES, type SubscriberStatus, type SubscriberView } from "~/shared/subscribers";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { AddSubscriberDialog } from "./add-subscriber-dialog";
import { LoadError } from "./load-error";
import { ExportButton, ImportDialog } from "./subscriber-csv";
import { refreshSubscribers, STATUS_LABELS } from "./subscribers-client";

const PAGE_SIZE = 20;

const STATUS_TONES = { pending: "amber", active: "green", unsubscribed: "neutral", bounced: "red" } as const;


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
