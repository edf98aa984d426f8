"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardTitle, EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { asSentence } from "~/lib/format";
import { cn } from "~/lib/cn";
import type { AppRouter } from "~/server/api/root";
import { IMPORT_PROCEDURE } from "~/shared/dashboard-limits";
import { formatBytes } from "~/shared/images";
import { MAX_IMPORT_BYTES, type ImportFormat, type ImportView } from "~/shared/imports";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { count, counted, Report } from "./import-report";
import { LoadError } from "./load-error";
import { sendForm } from "./send-form";

const FORMAT_NAMES: Record<ImportFormat, string> = { wordpress: "WordPress", ghost: "Ghost", substack: "Substack", markdown: "Markdown" };
const ACCEPTED = ".xml,.json,.zip";
/** The bound as docs/migrating.md says it ("200 MB"). */
const MAX_FILE = `${MAX_IMPORT_BYTES / 1024 / 1024} MB`;
/** A running import's progress asked for this often. */
const POLL_MS = 1_000;

const isRunning = (view: ImportView) => view.status === "queued" || view.status === "running";

/**
 * The Import & export page (docs/migrating.md): upload another platform's export and follow it,
 * each import's report and its undo, and the account's export as one zip.
 */
export function ImportExportPanel() {
  return (
    <div className="space-y-6">
      <ImportForm />
      <ImportList />
      <ExportCard />
    </div>
  );
}

function ImportForm() {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [oldUrl, setOldUrl] = useState("");
  const [dragging, setDragging] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [fileError, setFileError] = useState("");
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const inFlight = useRef<AbortController | null>(null);
  const progressId = useId();

  const choose = (chosen: File | undefined) => {
    setFileError("");
    setError("");
    setNotice("");
    setFile(chosen ?? null);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFileError("");
    setError("");
    setNotice("");
    if (!file) return setFileError("Choose your export's file: a .xml, .json or .zip.");
    if (file.size > MAX_IMPORT_BYTES) return setFileError(`This file is ${formatBytes(file.size)}: an export may be at most ${MAX_FILE}.`);
    const form = new FormData();
    form.set("file", file);
    if (oldUrl.trim()) form.set("oldUrl", oldUrl.trim());
    const controller = new AbortController();
    inFlight.current = controller;
    setSent(0);
    const outcome = await sendForm(IMPORT_PROCEDURE, form, { onProgress: setSent, signal: controller.signal });
    inFlight.current = null;
    setSent(null);
    if (outcome.kind === "cancelled") return setNotice("Upload cancelled.");
    if (outcome.kind === "unreachable") return setError(errorMessage(TRPCClientError.from(new Error("Failed to fetch"))));
    const started = (outcome.answer as { result?: { data?: { data?: { import?: ImportView } } } } | null)?.result?.data?.data?.import;
    if (outcome.status < 300 && started) {
      setFile(null);
      setOldUrl("");
      if (fileInput.current) fileInput.current.value = "";
      setNotice(`${file.name} is uploaded: its import runs below. You can leave this page; it goes on.`);
      await queryClient.invalidateQueries({ queryKey: trpc.imports.list.queryKey() });
      return;
    }
    const refusal = TRPCClientError.from<AppRouter>(outcome.answer ?? {});
    const { details } = (refusal.data ?? {}) as { details?: string };
    // The details say what is wrong with the file ("This file is not an export we read: …"); the message alone names the field.
    if (refusal.data) return setError(details ? asSentence(details) : errorMessage(refusal));
    setError(outcome.status === 413 ? `This file is larger than ${MAX_FILE}, the most an export may be.` : `The upload failed (HTTP ${outcome.status}). Please try again.`);
  }

  const uploading = sent !== null;
  return (
    <Card>
      <CardTitle>Import from another platform</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        A WordPress export (.xml), a Ghost export (.json, or its .zip with images), a Substack export (.zip) or a .zip of Markdown files, at most {MAX_FILE}.
        Posts become blogs with their images and tags; nothing is emailed to anyone.
      </p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-4 space-y-4">
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="import-drop-zone"
          className={cn(
            "rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors",
            dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50",
          )}
        >
          <Field label="Export file" hint="Drop it here, or choose it: .xml, .json or .zip." error={fileError || null}>
            {({ invalid, ...props }) => (
              <>
                {/* The browser's own control names the file a second time: hidden, its label drawn as a button instead. */}
                <input
                  {...props}
                  aria-invalid={invalid || undefined}
                  ref={fileInput}
                  type="file"
                  accept={ACCEPTED}
                  disabled={uploading}
                  onChange={(event) => choose(event.target.files?.[0])}
                  className="peer sr-only"
                />
                <label
                  htmlFor={props.id}
                  aria-hidden
                  className={buttonClasses(
                    "secondary",
                    "md",
                    "mt-1 cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600 peer-disabled:cursor-not-allowed peer-disabled:text-slate-400",
                  )}
                >
                  {file ? "Choose another file" : "Choose a file"}
                </label>
                <p className="text-sm break-words text-slate-700" data-testid="chosen-file">
                  {file ? `${file.name} · ${formatBytes(file.size)}` : "No file chosen"}
                </p>
              </>
            )}
          </Field>
        </div>
        <Field
          label="Old site address (optional)"
          hint="Your old blog's address, e.g. https://old-blog.example.com: links to your old posts then lead to the new ones."
        >
          {(props) => <Input {...props} type="url" inputMode="url" value={oldUrl} onChange={(event) => setOldUrl(event.target.value)} disabled={uploading} placeholder="https://" />}
        </Field>
        <div>
          {uploading ? (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
              <label htmlFor={progressId} className="min-w-0 flex-1 basis-40 truncate text-sm text-slate-700">
                {sent >= 1 ? "Checking" : "Uploading"} {file?.name}
              </label>
              <ProgressBar id={progressId} value={sent} max={1} />
              <span aria-hidden className="w-10 text-right text-sm text-slate-600 tabular-nums">
                {Math.round(sent * 100)}%
              </span>
              <Button variant="secondary" size="sm" onClick={() => inFlight.current?.abort()}>
                Cancel upload
              </Button>
            </div>
          ) : (
            <Button type="submit">Import</Button>
          )}
          {/* Always there (a live region announces what comes into it), taking no room while empty. */}
          <p role={error ? "alert" : "status"} className={cn("mt-3 text-sm empty:mt-0", error ? "text-red-600" : "text-slate-700")}>
            {error || notice}
          </p>
        </div>
      </form>
    </Card>
  );
}

function ProgressBar({ id, value, max, label }: { id?: string; value: number | null; max: number | null; label?: string }) {
  return (
    <progress
      id={id}
      aria-label={label}
      max={max ?? undefined}
      value={value ?? undefined}
      className={cn(
        "h-2 w-32 shrink-0 appearance-none overflow-hidden rounded-full bg-slate-200",
        "[&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600 [&::-moz-progress-bar]:bg-indigo-600",
      )}
    />
  );
}

function ImportList() {
  const list = useQuery({ queryKey: trpc.imports.list.queryKey(), queryFn: () => api.imports.list.query() });
  return (
    <section aria-labelledby="imports-heading" className="space-y-3">
      <h2 id="imports-heading" className="text-base font-semibold text-slate-900">
        Your imports
      </h2>
      {list.isPending ? (
        <Loading label="Loading your imports" className="space-y-3">
          <Skeleton className="h-24" />
        </Loading>
      ) : list.isError ? (
        <LoadError what="your imports" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : list.data.imports.length === 0 ? (
        <EmptyState title="No imports yet">Each file you import is listed here with its report.</EmptyState>
      ) : (
        <ul className="space-y-3">
          {list.data.imports.map((view) => (
            <li key={view.id}>
              <ImportCard listed={view} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One import: a running one asks for its progress every second until it ends, then the list is told. */
function ImportCard({ listed }: { listed: ImportView }) {
  const queryClient = useQueryClient();
  const live = useQuery({
    queryKey: trpc.imports.get.queryKey({ importId: listed.id }),
    queryFn: () => api.imports.get.query({ importId: listed.id }),
    enabled: isRunning(listed),
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data.data.import) ? false : POLL_MS),
  });
  const view = live.data && isRunning(listed) ? live.data.data.import : listed;
  const ended = !isRunning(view) && isRunning(listed);
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: trpc.imports.list.queryKey() });
  }, [ended, queryClient]);
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" data-testid="import">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="font-semibold break-words text-slate-900">
            {view.fileName || "Export"}
          </h3>
          <p className="mt-0.5 text-sm text-slate-600">
            {FORMAT_NAMES[view.format]} · {formatBytes(view.fileBytes)} ·{" "}
            <span className="whitespace-nowrap">
              <LocalTime iso={view.createdAt} />
            </span>
            {view.oldUrl && (
              <>
                {" "}
                · from <span className="break-words">{view.oldUrl}</span>
              </>
            )}
          </p>
        </div>
        <span className="shrink-0">
          <StatusBadge view={view} />
        </span>
      </div>
      {isRunning(view) && <ImportProgress view={view} />}
      {view.status === "failed" && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          The import stopped: {view.error ?? "something went wrong on our side"}. Nothing more will be imported from this file; what was imported stays.
        </p>
      )}
      {(view.status === "done" || view.status === "failed") && <Report report={view.report} />}
      {view.undoneAt ? (
        <p className="mt-3 text-sm text-slate-600">
          Undone <LocalTime iso={view.undoneAt} />: what it created is deleted.
        </p>
      ) : (
        view.status === "done" && <UndoButton view={view} />
      )}
    </article>
  );
}

function StatusBadge({ view }: { view: ImportView }) {
  if (view.undoneAt) return <Badge>Undone</Badge>;
  switch (view.status) {
    case "queued":
      return <Badge tone="amber">Waiting to start</Badge>;
    case "running":
      return <Badge tone="indigo">Importing</Badge>;
    case "done":
      return <Badge tone="green">Done</Badge>;
    case "failed":
      return <Badge tone="red">Failed</Badge>;
  }
}

function ImportProgress({ view }: { view: ImportView }) {
  const id = useId();
  const { processed, total } = view.progress;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
      <label htmlFor={id} className="text-sm text-slate-700" role="status">
        {view.status === "queued"
          ? "Waiting to start…"
          : total === null
            ? `Importing: ${count(processed)} items so far`
            : `Importing: ${count(processed)} of ${count(total)} items`}
      </label>
      <ProgressBar id={id} value={view.status === "queued" || total === null ? null : processed} max={total} />
    </div>
  );
}

function UndoButton({ view }: { view: ImportView }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const undo = async () => {
    setBusy(true);
    setError("");
    try {
      await api.imports.undo.mutate({ importId: view.id });
      setOpen(false);
      await Promise.all([trpc.imports.list.queryKey(), trpc.blogs.list.queryKey()].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={<Button variant="secondary">Undo this import</Button>}
        title="Undo this import?"
        description={
          <p>
            The {counted(view.report.imported, "blog", "blogs")} it created {view.report.imported === 1 ? "is" : "are"} deleted, with the images no other blog uses
            {view.report.subscribers > 0 && <>, the {counted(view.report.subscribers, "subscriber", "subscribers")} it added</>}
            {view.oldUrl && <> and the redirects from your old addresses</>}. Blogs you had before stay as they are. This cannot be undone.
          </p>
        }
        confirmLabel="Undo import"
        onConfirm={() => void undo()}
        busy={busy}
      />
      <span role="alert" className="text-sm text-red-600">
        {error}
      </span>
    </div>
  );
}

function ExportCard() {
  return (
    <Card>
      <CardTitle>Export</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        Everything you have written here in one .zip: your blogs as a Ghost export (ghost.json) and as Markdown files with front matter, every image&apos;s
        original, and your subscribers as CSV. It imports into Ghost, or back here.
      </p>
      <a href="/dashboard/export" download className={buttonClasses("secondary", "md", "mt-4")}>
        Download everything (.zip)
      </a>
    </Card>
  );
}
