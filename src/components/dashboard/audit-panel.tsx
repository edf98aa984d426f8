"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { EmptyState, Skeleton } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { AUDIT_ACTOR_KINDS, AUDIT_TARGET_TYPES, type AuditActorKind, type AuditEntryView, type AuditTargetType } from "~/shared/audit-log";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";

const PAGE_SIZE = 50;

const ACTOR_LABELS: Record<AuditActorKind, string> = { member: "Member", api_key: "API key", cli: "CLI", job: "Job", database: "Database" };
const ACTOR_FILTER_LABELS: Record<AuditActorKind, string> = { member: "Members", api_key: "API keys", cli: "The CLI", job: "Jobs", database: "Database" };
const ACTOR_TONES = { member: "indigo", api_key: "green", cli: "amber", job: "neutral", database: "neutral" } as const;
const TARGET_LABELS: Record<AuditTargetType, string> = {
  blog: "Blogs",
  publication: "Publication",
  settings: "Publication settings",
  member: "Members",
  invitation: "Invitations",
  api_key: "API keys",
  webhook: "Webhooks",
  subscriber: "Subscribers",
  import: "Imports",
};

interface Filters {
  action?: AuditTargetType;
  /** An actor kind, or one actor's id (chosen from a row). */
  actor?: string;
  actorName?: string;
  from?: string;
  to?: string;
}

/**
 * The Audit log page (docs/audit-log.md): every change to the publication, newest first, with
 * who made it, when, from where and which fields; filters by what, who and when; pages by
 * cursor; the filtered entries as CSV.
 */
export function AuditPanel() {
  const [filters, setFilters] = useState<Filters>({});
  // The cursors of the pages seen: the last one is the page shown (undefined: the first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const filterInput = { action: filters.action, actor: filters.actor, from: filters.from || undefined, to: filters.to || undefined };
  const input = { ...filterInput, limit: PAGE_SIZE, cursor };
  const list = useQuery({
    queryKey: trpc.audit.list.queryKey(input),
    queryFn: () => api.audit.list.query(input),
    placeholderData: keepPreviousData,
  });
  const update = (change: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setCursors([undefined]);
  };
  const data = list.data?.data;
  const filtered = Object.values(filterInput).some((value) => value !== undefined);
  const actorIsOne = filters.actor !== undefined && !(AUDIT_ACTOR_KINDS as readonly string[]).includes(filters.actor);
  return (
    <div className="space-y-4">
      <form role="search" aria-label="Filter the audit log" className="flex flex-wrap items-end gap-3" onSubmit={(event) => event.preventDefault()}>
        <span className="flex flex-col gap-1 text-sm text-slate-700">
          <label htmlFor="audit-action">What</label>
          <select
            id="audit-action"
            value={filters.action ?? ""}
            onChange={(event) => update({ action: AUDIT_TARGET_TYPES.find((t) => t === event.target.value) })}
            className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <option value="">Everything</option>
            {AUDIT_TARGET_TYPES.map((t) => (
              <option key={t} value={t}>
                {TARGET_LABELS[t]}
              </option>
            ))}
          </select>
        </span>
        <span className="flex flex-col gap-1 text-sm text-slate-700">
          <label htmlFor="audit-actor">Who</label>
          <select
            id="audit-actor"
            value={actorIsOne ? "one" : (filters.actor ?? "")}
            onChange={(event) => event.target.value !== "one" && update({ actor: event.target.value || undefined, actorName: undefined })}
            className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <option value="">Anyone</option>
            {actorIsOne && <option value="one">{filters.actorName ?? filters.actor}</option>}
            {AUDIT_ACTOR_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ACTOR_FILTER_LABELS[kind]}
              </option>
            ))}
          </select>
        </span>
        <span className="flex flex-col gap-1 text-sm text-slate-700">
          <label htmlFor="audit-from">From</label>
          <Input id="audit-from" type="date" value={filters.from ?? ""} max={filters.to || undefined} onChange={(event) => update({ from: event.target.value })} className="w-40" />
        </span>
        <span className="flex flex-col gap-1 text-sm text-slate-700">
          <label htmlFor="audit-to">To</label>
          <Input id="audit-to" type="date" value={filters.to ?? ""} min={filters.from || undefined} onChange={(event) => update({ to: event.target.value })} className="w-40" />
        </span>
        {filtered && (
          <Button type="button" variant="secondary" onClick={() => update({ action: undefined, actor: undefined, actorName: undefined, from: undefined, to: undefined })}>
            Clear filters
          </Button>
        )}
        <ExportButton filters={filterInput} />
      </form>
      <p className="text-sm text-slate-600">Dates are UTC days. Entries are kept 180 days.</p>
      {list.error ? (
        <LoadError what="the audit log" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.entries.length === 0 ? (
        <EmptyState title={filtered ? "No entry matches" : "Nothing recorded yet"}>
          {filtered ? "Try other filters or dates." : "Changes to your blogs, settings, members, keys, webhooks and subscribers appear here."}
        </EmptyState>
      ) : (
        <>
          <Table label="Audit log">
            <THead>
              <tr>
                <Th className="hidden sm:table-cell">When</Th>
                <Th>Who</Th>
                <Th>What</Th>
                <Th className="hidden md:table-cell">Changed</Th>
                <Th className="hidden lg:table-cell">From</Th>
              </tr>
            </THead>
            <TBody>
              {data.entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} onActor={(id, name) => update({ actor: id, actorName: name })} />
              ))}
            </TBody>
          </Table>
          <nav className="flex items-center justify-between gap-3" aria-label="Pages">
            <Button variant="secondary" size="sm" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </Button>
            <span className="text-sm text-slate-600">Page {cursors.length}</span>
            <Button
              variant="secondary"
              size="sm"
              disabled={!data.pagination.nextCursor}
              onClick={() => data.pagination.nextCursor && setCursors((c) => [...c, data.pagination.nextCursor ?? undefined])}
            >
              Older
            </Button>
          </nav>
        </>
      )}
    </div>
  );
}

function EntryRow({ entry, onActor }: { entry: AuditEntryView; onActor: (id: string, name: string) => void }) {
  const name = entry.actor.name ?? entry.actor.id ?? ACTOR_LABELS[entry.actor.kind];
  return (
    <Tr>
      <Td className="hidden whitespace-nowrap text-slate-700 sm:table-cell">
        <LocalTime iso={entry.at} />
      </Td>
      <Td>
        {/* On a phone the time goes above the actor: the row fits without scrolling. */}
        <span className="block text-xs whitespace-nowrap text-slate-700 sm:hidden">
          <LocalTime iso={entry.at} />
        </span>
        <Badge tone={ACTOR_TONES[entry.actor.kind]}>{ACTOR_LABELS[entry.actor.kind]}</Badge>{" "}
        {entry.actor.id ? (
          <button
            type="button"
            onClick={() => onActor(entry.actor.id!, name)}
            className="text-left text-indigo-700 underline-offset-2 [overflow-wrap:anywhere] hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            aria-label={`Only changes by ${name}`}
          >
            {name}
          </button>
        ) : (
          <span className="text-slate-700">{entry.actor.name}</span>
        )}
      </Td>
      <Td className="text-slate-900">
        <code className="text-xs [overflow-wrap:anywhere] md:whitespace-nowrap">{entry.action}</code>
        <span className="block text-xs text-slate-600 [overflow-wrap:anywhere]">{entry.target.id}</span>
        {/* Below md the changed fields go under the action: the row fits a phone without scrolling. */}
        {entry.changedFields.length > 0 && <span className="block text-xs text-slate-700 md:hidden [overflow-wrap:anywhere]">{entry.changedFields.join(", ")}</span>}
      </Td>
      <Td className="hidden text-xs text-slate-700 md:table-cell [overflow-wrap:anywhere]">{entry.changedFields.join(", ")}</Td>
      <Td className="hidden text-xs text-slate-700 lg:table-cell">
        {entry.ip && <span className="block">{entry.ip}</span>}
        {entry.userAgent && (
          <span className="block max-w-56 truncate" title={entry.userAgent}>
            {entry.userAgent}
          </span>
        )}
        {entry.requestId && <span className="block font-mono text-[11px] text-slate-600">{entry.requestId}</span>}
      </Td>
    </Tr>
  );
}

function ExportButton({ filters }: { filters: { action?: string; actor?: string; from?: string; to?: string } }) {
  const [message, setMessage] = useState("");
  const download = useMutation({
    mutationFn: () => api.audit.export.query(filters),
    onSuccess: ({ csv, rows, truncated }) => {
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(url);
      setMessage(truncated ? `The newest ${rows.toLocaleString("en-US")} entries: narrow the filters for older ones.` : "");
    },
    onError: (e) => setMessage(errorMessage(e)),
  });
  return (
    <span className="flex items-center gap-3">
      <Button type="button" variant="secondary" loading={download.isPending} onClick={() => download.mutate()}>
        Download CSV
      </Button>
      <span role="status" className="text-sm text-slate-700 empty:hidden">
        {message}
      </span>
    </span>
  );
}
