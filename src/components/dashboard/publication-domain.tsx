"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Field, Input } from "~/components/ui/input";
import type { Publication } from "~/shared/publication";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { SettingsCard } from "./settings-card";

/**
 * The publication's custom domain (docs/public-blog.md, Custom domains): the owner sets it, copies
 * the TXT record to add at their DNS provider, and asks for verification; verified, the
 * publication is served there. `onChange` gets the publication as saved, for the page holding this.
 */
export function PublicationDomain({ publication, onChange }: { publication: Publication; onChange?: (publication: Publication) => void }) {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState(publication.domain ?? "");
  const [pending, setPending] = useState<"save" | "verify" | null>(null);
  const [done, setDone] = useState("");
  const [error, setError] = useState("");
  const record = useQuery({ queryKey: trpc.publication.domainRecord.queryKey(), queryFn: () => api.publication.domainRecord.query() });

  async function act(kind: "save" | "verify", action: () => Promise<string>) {
    setPending(kind);
    setDone("");
    setError("");
    try {
      setDone(await action());
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: trpc.publication.domainRecord.queryKey() });
    }
  }

  const save = (event: FormEvent) => {
    event.preventDefault();
    void act("save", async () => {
      const { hostingError, ...saved } = await api.publication.update.mutate({ domain: domain.trim() === "" ? null : domain });
      onChange?.(saved);
      setDomain(saved.domain ?? "");
      // Saved all the same: the owner learns what the hosting refused.
      if (hostingError) setError(hostingError);
      return saved.domain ? `Saved. Add the TXT record below, then verify ${saved.domain}.` : "The custom domain is removed.";
    });
  };

  const verify = () =>
    act("verify", async () => {
      const verified = await api.publication.verifyDomain.mutate();
      onChange?.({ ...publication, domain: verified.domain, domainVerified: true });
      return `${verified.domain} is verified: the publication is served there within a few seconds.`;
    });

  const shown = record.data;
  return (
    <SettingsCard title="Custom domain" done={done} error={error}>
      <form onSubmit={save} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <Field label="Domain" hint="A host name you own, such as blog.example.com; empty to serve the publication only at its usual address.">
            {(props) => <Input {...props} value={domain} onChange={(event) => setDomain(event.target.value)} placeholder="blog.example.com" autoComplete="off" spellCheck={false} />}
          </Field>
        </div>
        <Button type="submit" loading={pending === "save"} className="mb-5">
          Save domain
        </Button>
      </form>
      {shown && (
        <div className="mt-2 space-y-3 text-sm">
          <p className="flex items-center gap-2">
            {shown.domain} {shown.verified ? <Badge tone="green">Verified</Badge> : <Badge>Pending verification</Badge>}
          </p>
          {!shown.verified && (
            <>
              <p className="text-slate-600">At your DNS provider, add this TXT record, then verify. DNS changes can take a few minutes to show.</p>
              <dl className="space-y-2">
                {[
                  { term: "Name", text: shown.name },
                  { term: "Value", text: shown.value },
                ].map(({ term, text }) => (
                  <div key={term} className="flex flex-wrap items-center gap-x-3">
                    <dt className="w-12 font-medium">{term}</dt>
                    <dd className="flex min-w-0 flex-1 items-center gap-2">
                      <span className="font-mono break-all">{text}</span>
                      <CopyButton text={text} label={`Copy the record's ${term.toLowerCase()}`} announce={`Record ${term.toLowerCase()} copied`} />
                    </dd>
                  </div>
                ))}
              </dl>
              <Button variant="secondary" loading={pending === "verify"} onClick={verify}>
                Verify {shown.domain}
              </Button>
            </>
          )}
        </div>
      )}
    </SettingsCard>
  );
}
