"use client";

import { Button } from "~/components/ui/button";
import { Card, CardTitle } from "~/components/ui/card";
import { Field, Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { Switch } from "~/components/ui/switch";
import type { Values } from "./blog-form-values";

type VisibilityField = "isPublic" | "publishAt" | "allowApiAccess";

/**
 * Who can read the blog: public or not (else maybe scheduled), and whether API keys reach it.
 * `scheduledFor`: the stored schedule while the picker still shows it; `publicPath`: its public
 * page while it is stored public.
 */
export function BlogVisibilityCard({
  values,
  onChange,
  scheduleError,
  onScheduleEdit,
  scheduledFor,
  publicPath,
}: {
  values: Pick<Values, VisibilityField>;
  onChange: <K extends VisibilityField>(field: K, value: Values[K]) => void;
  scheduleError?: string;
  onScheduleEdit: () => void;
  scheduledFor: string | null;
  publicPath: string | null;
}) {
  return (
    <Card className="space-y-4">
      <CardTitle>Visibility</CardTitle>
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-800">Public</p>
          <p className="text-xs text-slate-500">Anyone can read it at its public address.</p>
        </div>
        <Switch label="Public" checked={values.isPublic} onCheckedChange={(v) => onChange("isPublic", v)} />
      </div>
      {!values.isPublic && (
        <div className="space-y-1">
          <Field label="Schedule" error={scheduleError} hint="Publish automatically at this time (your time zone); saved with the blog.">
            {(props) => (
              <Input
                {...props}
                type="datetime-local"
                value={values.publishAt}
                onChange={(e) => {
                  onChange("publishAt", e.target.value);
                  onScheduleEdit();
                }}
              />
            )}
          </Field>
          {scheduledFor && (
            <p className="text-xs text-slate-600">
              Scheduled for <LocalTime iso={scheduledFor} />.
            </p>
          )}
          {values.publishAt && (
            <Button size="sm" variant="secondary" onClick={() => onChange("publishAt", "")}>
              Clear schedule
            </Button>
          )}
        </div>
      )}
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-800">Allow API access</p>
          <p className="text-xs text-slate-500">Your API keys can read, change and delete it.</p>
        </div>
        <Switch label="Allow API access" checked={values.allowApiAccess} onCheckedChange={(v) => onChange("allowApiAccess", v)} />
      </div>
      {publicPath && (
        // A plain link: the public site is static HTML outside Next's router (docs/public-blog.md).
        <a href={publicPath} className="block truncate text-sm font-medium text-indigo-700 underline">
          View public page {publicPath}
        </a>
      )}
    </Card>
  );
}
