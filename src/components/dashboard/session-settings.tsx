"use client";

import { useEffect, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import { authClient, authErrorMessage } from "~/lib/auth-client";
import { formatMoment } from "~/lib/format";
import { deviceName, shownAddress } from "~/shared/session-display";
import { SettingsCard } from "./settings-card";

type SessionRow = { id: string; token: string; userAgent?: string | null; ipAddress?: string | null; createdAt: Date | string; updatedAt: Date | string };

const isoOf = (value: Date | string) => new Date(value).toISOString();

/**
 * The owner's sessions (better-auth's list-sessions): the device each is on, its address and last
 * activity, this one first; any other can be ended (revoke-session), or all of them at once.
 */
export function SessionSettings() {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [done, setDone] = useState("");
  const [error, setError] = useState("");
  const [pending, setPending] = useState<string | null>(null);

  // Bumped to list the sessions again after a change.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    void Promise.all([authClient.listSessions(), authClient.getSession()]).then(([list, session]) => {
      if (!current) return;
      if (list.error) return setError(authErrorMessage(list.error));
      const id = session.data?.session.id ?? null;
      setCurrentId(id);
      // This device first, then the most recently active.
      setSessions(
        [...(list.data as SessionRow[])].sort((a, b) => Number(b.id === id) - Number(a.id === id) || isoOf(b.updatedAt).localeCompare(isoOf(a.updatedAt))),
      );
    });
    return () => {
      current = false;
    };
  }, [version]);

  async function end(label: string, action: () => Promise<{ error: Parameters<typeof authErrorMessage>[0] }>, message: string) {
    setDone("");
    setError("");
    setPending(label);
    const result = await action();
    setPending(null);
    if (result.error) return setError(authErrorMessage(result.error));
    setDone(message);
    setVersion((v) => v + 1);
  }

  return (
    <SettingsCard title="Sessions" done={done} error={error}>
      <p className="text-sm text-slate-600">Where your account is signed in. Don&apos;t recognise one? Sign it out, then change your password.</p>
      {sessions === null ? (
        <p className="mt-3 text-sm text-slate-500">Loading sessions…</p>
      ) : (
        <ul aria-label="Sessions" className="mt-3 divide-y divide-slate-200 rounded-md border border-slate-200">
          {sessions.map((session) => {
            const device = deviceName(session.userAgent);
            return (
              <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3">
                <div className="min-w-0 space-y-0.5 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {device}
                    {session.id === currentId && <Badge tone="green">This device</Badge>}
                  </p>
                  <p className="text-slate-600">
                    {session.ipAddress ? <span className="font-mono break-all">{shownAddress(session.ipAddress)}</span> : "Address unknown"}
                    {" · "}Last active <LocalTime iso={isoOf(session.updatedAt)} />
                  </p>
                </div>
                {session.id !== currentId && (
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={pending === session.id}
                    aria-label={`End session on ${device}, last active ${formatMoment(isoOf(session.updatedAt))}`}
                    onClick={() => end(session.id, () => authClient.revokeSession({ token: session.token }), `The session on ${device} is ended.`)}
                  >
                    End session
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Button
        variant="secondary"
        className="mt-3"
        loading={pending === "others"}
        onClick={() => end("others", () => authClient.revokeOtherSessions(), "Every other session is signed out.")}
      >
        Sign out of other sessions
      </Button>
    </SettingsCard>
  );
}
