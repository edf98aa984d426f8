"use client";

import type { ReactNode } from "react";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { REPORT_LIST_LIMIT, type ImportReport } from "~/shared/imports";

/** A number as the page writes it (1,234). */
export const count = (n: number) => n.toLocaleString("en-US");
/** A number with its noun, singular or plural ("1 blog", "3 blogs"). */
export const counted = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** An import's report (docs/migrating.md, Importing here): its figures, then the lists of skipped items, changed posts and images not brought in. */
export function Report({ report }: { report: ImportReport }) {
  const skippedKinds = Object.entries(report.skippedByKind)
    .map(([kind, n]) => counted(n, kind, `${kind}s`))
    .join(", ");
  return (
    <div className="mt-4 space-y-3 text-sm text-slate-700" data-testid="import-report">
      {/* Imported always; the other figures only when something happened (a Markdown zip has no subscribers). */}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-md bg-slate-50 px-4 py-3 sm:grid-cols-4">
        <Figure label="Imported" value={report.imported} />
        {(
          [
            ["Already imported", report.alreadyImported],
            ["Skipped", report.skipped],
            ["Changed", report.changed],
            ["Images", report.images],
            ["Images not brought in", report.failedImages],
            ["Subscribers added", report.subscribers],
            ["Subscribers already here", report.subscribersAlreadyPresent],
          ] as const
        )
          .filter(([, value]) => value > 0)
          .map(([label, value]) => (
            <Figure key={label} label={label} value={value} />
          ))}
      </dl>
      {report.skippedItems.length > 0 ? (
        <Details summary={`Skipped: ${skippedKinds}`} listed={report.skippedItems.length} total={report.skipped}>
          <Table label="Skipped items">
            <THead>
              <tr>
                <Th>Item</Th>
                <Th>Why</Th>
              </tr>
            </THead>
            <TBody>
              {report.skippedItems.map((item) => (
                <Tr key={`${item.kind}:${item.sourceId}`}>
                  <Td className="break-words">
                    {item.title || "(untitled)"}
                    <span className="block text-xs text-slate-600">{item.kind}</span>
                  </Td>
                  <Td>{item.reason}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Details>
      ) : (
        skippedKinds && <p>Skipped: {skippedKinds}.</p>
      )}
      {report.changedItems.length > 0 && (
        <Details summary={`Changed posts (${count(report.changed)})`} listed={report.changedItems.length} total={report.changed}>
          <Table label="Changed posts">
            <THead>
              <tr>
                <Th>Post</Th>
                <Th>What changed</Th>
              </tr>
            </THead>
            <TBody>
              {report.changedItems.map((item, index) => (
                <Tr key={`${item.sourceId}:${item.change}:${index}`}>
                  <Td className="break-words">
                    <a className="font-medium text-indigo-700 underline hover:text-indigo-600" href={`/dashboard/blogs/${item.blogId}`}>
                      {item.title || "(untitled)"}
                    </a>
                  </Td>
                  <Td>{item.detail}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Details>
      )}
      {report.failedImageItems.length > 0 && (
        <Details summary={`Images not brought in (${count(report.failedImages)})`} listed={report.failedImageItems.length} total={report.failedImages}>
          <p className="mb-2">These posts keep the image&apos;s old address.</p>
          <Table label="Images not brought in">
            <THead>
              <tr>
                <Th>Address</Th>
                <Th>Why</Th>
              </tr>
            </THead>
            <TBody>
              {report.failedImageItems.map((item, index) => (
                <Tr key={`${item.sourceId}:${index}`}>
                  <Td className="break-all">{item.url}</Td>
                  <Td>{item.reason}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Details>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div data-testid="report-figure">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900 tabular-nums">{count(value)}</dd>
    </div>
  );
}

function Details({ summary, listed, total, children }: { summary: string; listed: number; total: number; children: ReactNode }) {
  return (
    <details className="rounded-md border border-slate-200">
      <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600">{summary}</summary>
      <div className="border-t border-slate-200 p-3">
        {children}
        {total > listed && <p className="mt-2">The first {count(Math.min(listed, REPORT_LIST_LIMIT))} are listed.</p>}
      </div>
    </details>
  );
}
