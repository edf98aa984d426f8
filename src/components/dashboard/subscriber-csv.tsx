"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { DIALOG_CONTENT, DIALOG_OVERLAY, FormDialogActions } from "~/components/ui/dialog";
import { Field } from "~/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { api, errorMessage } from "~/trpc/react";
import { refreshSubscribers } from "./subscribers-client";

/** The import's file bound (src/server/subscribers/csv.ts), checked here before the file is sent. */
const MAX_IMPORT_MB = 5;

type ImportReport = Awaited<ReturnType<typeof api.subscribers.import.mutate>>;

const LAYOUT_NAMES = { substack: "Substack", ghost: "Ghost", mailchimp: "Mailchimp", plain: "a plain list" } as const;

/** Imports a CSV export of another newsletter tool into the list, with a report of what was skipped and why. */
export function ImportDialog() {
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

export function ExportButton() {
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
