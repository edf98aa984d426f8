"use client";

import { useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { RadioGroup } from "~/components/ui/radio-group";
import { formatLongDay, formatSubscriberCount, formatTimeOfDay } from "~/lib/format";
import type { BlogStatus } from "~/shared/blog-status";
import { fromLocalInput, toLocalInput } from "./blog-form-values";
import { EmailChoice, useAudience } from "./newsletter-choice";

/** A change of the blog's status, as the update sends it, with the choice to email it when the panel offers one. */
export type StatusChange = ({ isPublic: true } | { isPublic: false; publishAt: string } | { isPublic: false; publishAt: null }) & { emailSubscribers?: boolean };

type Choice = "now" | "schedule" | "draft";
const CHOICE_LABELS: Record<Choice, string> = { now: "Publish now", schedule: "Schedule", draft: "Cancel schedule" };
const SCHEDULED_CHOICE_LABELS: Record<Choice, string> = { now: "Publish now", schedule: "Reschedule", draft: "Cancel schedule (back to draft)" };

/** "on Thursday 3 December 2026 at 09:30", in the owner's time zone. */
function onDateAtTime(at: Date): string {
  return `on ${formatLongDay(at)} at ${formatTimeOfDay(at)}`;
}

/**
 * The one control of a blog's status (docs/dashboard.md, Publishing): a draft is published now or
 * scheduled, a scheduled one rescheduled, published now or sent back to draft, and a published one
 * unpublished; each in a small panel that says in one sentence what will happen, confirmed there.
 * `onChange` saves the form's pending edits with the change (a refusal is shown in the form).
 */
interface PublishControlProps {
  status: BlogStatus;
  /** The stored schedule (ISO), for a scheduled blog. */
  publishAt: string | null;
  /** The address the blog is (or will be) public at, "/handle/slug". */
  publicPath: string;
  busy: boolean;
  onChange: (change: StatusChange) => Promise<unknown>;
  /** Where focus goes once a panel closes (the field a refused save is about), instead of its button. */
  onCloseAutoFocus: (event: Event) => void;
  /**
   * The email to subscribers (docs/newsletters.md, Emailing a post): offered while the blog has never
   * been public, `checked` as stored; `blogId` once saved, for a test email.
   */
  email: { offered: boolean; checked: boolean; blogId?: string };
}

export function PublishControl(props: PublishControlProps) {
  const { status, publicPath, busy, onChange, onCloseAutoFocus } = props;
  if (status === "published") {
    return (
      <ConfirmPanel
        triggerLabel="Unpublish"
        triggerVariant="secondary"
        title="Unpublish this post?"
        confirmLabel="Unpublish"
        danger
        busy={busy}
        onConfirm={() => onChange({ isPublic: false, publishAt: null })}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <p>
          The public page <span className="font-mono break-all">{publicPath}</span> will answer 404 and the post leaves your feeds and
          sitemap. It goes back to being a draft; you can publish it again.
        </p>
      </ConfirmPanel>
    );
  }
  return <PublishPanel {...props} status={status} />;
}

function PublishPanel({ status, publishAt, publicPath, busy, onChange, onCloseAutoFocus, email }: PublishControlProps & { status: "draft" | "scheduled" }) {
  const scheduled = status === "scheduled";
  const [choice, setChoice] = useState<Choice>(scheduled ? "schedule" : "now");
  const [when, setWhen] = useState(toLocalInput(publishAt));
  const [whenError, setWhenError] = useState("");
  const [emailOn, setEmailOn] = useState(email.checked);
  const audience = useAudience(email.offered);
  const at = when ? new Date(when) : null;
  // The checkbox is shown (and its choice sent) only when there is someone to email.
  const emailShown = email.offered && audience !== undefined && audience > 0;
  const recipients = emailShown && emailOn ? formatSubscriberCount(audience) : null;

  const sentence: Record<Choice, ReactNode> = {
    now: (
      <>
        It will be public at <span className="font-mono break-all">{publicPath}</span> now{recipients && ` and emailed to ${recipients}`}.
      </>
    ),
    schedule: at ? <>It will become public {onDateAtTime(at)}{recipients && `, and be emailed to ${recipients} then`}.</> : <>Choose when it becomes public.</>,
    draft: <>It goes back to being a draft: nothing will be published.</>,
  };

  /** False when the panel's own moment is refused (it stays open); else the change is saved (or refused in the form). */
  const confirm = async () => {
    if (choice === "schedule" && (!at || at.getTime() <= Date.now())) {
      setWhenError("Choose a moment in the future.");
      return false;
    }
    const change: StatusChange =
      choice === "now" ? { isPublic: true } : choice === "schedule" ? { isPublic: false, publishAt: fromLocalInput(when)! } : { isPublic: false, publishAt: null };
    await onChange(emailShown ? { ...change, emailSubscribers: emailOn } : change);
    return true;
  };

  return (
    <ConfirmPanel
      triggerLabel={scheduled ? "Reschedule" : "Publish"}
      triggerVariant="primary"
      title={scheduled ? "Change the schedule" : "Publish this post"}
      confirmLabel={choice === "schedule" ? (scheduled ? "Reschedule" : "Schedule") : CHOICE_LABELS[choice]}
      danger={choice === "draft"}
      busy={busy}
      onConfirm={confirm}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <RadioGroup
        legend="When"
        name="publish-when"
        options={scheduled ? (["schedule", "now", "draft"] as const) : (["now", "schedule"] as const)}
        labels={scheduled ? SCHEDULED_CHOICE_LABELS : { ...CHOICE_LABELS, schedule: "Schedule…" }}
        value={choice}
        onChange={setChoice}
        className="flex flex-col gap-2"
      />
      {choice === "schedule" && (
        <div className="mt-3">
          <Field label="Publish on" error={whenError} hint="In your time zone.">
            {(props) => (
              <Input
                {...props}
                type="datetime-local"
                value={when}
                onChange={(event) => {
                  setWhen(event.target.value);
                  setWhenError("");
                }}
              />
            )}
          </Field>
        </div>
      )}
      {email.offered && choice !== "draft" && <EmailChoice audience={audience} checked={emailOn} onCheckedChange={setEmailOn} blogId={email.blogId} />}
      <p className="mt-3 font-medium text-slate-900" data-testid="publish-sentence">
        {sentence[choice]}
      </p>
    </ConfirmPanel>
  );
}

/**
 * A small confirmation panel opened by a button (ConfirmDialog: focus trapped, Escape closes, focus
 * back on the trigger unless `onCloseAutoFocus` takes it elsewhere); it closes once `onConfirm` is
 * done, unless it answers false.
 */
function ConfirmPanel({
  triggerLabel,
  triggerVariant,
  title,
  confirmLabel,
  danger,
  busy,
  onConfirm,
  onCloseAutoFocus,
  children,
}: {
  triggerLabel: string;
  triggerVariant: "primary" | "secondary";
  title: string;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  onConfirm: () => Promise<unknown>;
  onCloseAutoFocus: (event: Event) => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant={triggerVariant} loading={busy && !open} data-publish-trigger>
          {triggerLabel}
        </Button>
      }
      title={title}
      description={children}
      confirmLabel={confirmLabel}
      confirmVariant={danger ? "danger" : "primary"}
      busy={busy}
      onConfirm={() => void onConfirm().then((answer) => answer !== false && setOpen(false))}
      onCloseAutoFocus={onCloseAutoFocus}
    />
  );
}
