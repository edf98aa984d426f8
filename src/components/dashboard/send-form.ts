import { UPLOAD_REQUEST_HEADER } from "~/shared/dashboard-limits";

/** How a form sent to a procedure ended: its answer (JSON, or null when something in between answered), no connection, or cancelled. */
export type FormAnswer = { kind: "answered"; status: number; answer: unknown } | { kind: "unreachable" } | { kind: "cancelled" };

/**
 * Sends `form` to one of the procedures taking a form (src/shared/dashboard-limits.ts) as tRPC's
 * fetch adapter reads it, through XMLHttpRequest because fetch reports no upload progress:
 * `onProgress` is told the share sent (0 to 1), `signal` cancels. Same-origin, with the header
 * the server wants of a form (src/server/http/same-origin-request.ts).
 */
export function sendForm(procedure: string, form: FormData, { onProgress, signal }: { onProgress: (sent: number) => void; signal: AbortSignal }): Promise<FormAnswer> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/trpc/${procedure}`);
    request.setRequestHeader(UPLOAD_REQUEST_HEADER.name, UPLOAD_REQUEST_HEADER.value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let answer: unknown = null;
      try {
        answer = JSON.parse(request.responseText);
      } catch {
        // Not JSON: something in between answered (a proxy's page); the caller tells it by its status.
      }
      resolve({ kind: "answered", status: request.status, answer });
    };
    request.onerror = () => resolve({ kind: "unreachable" });
    request.onabort = () => resolve({ kind: "cancelled" });
    signal.addEventListener("abort", () => request.abort(), { once: true });
    request.send(form);
  });
}
