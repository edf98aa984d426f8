"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardTitle, Loading, Skeleton } from "~/components/ui/card";
import { ConfirmDialog, DIALOG_CONTENT, DIALOG_OVERLAY, FormDialogActions } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { LocalTime } from "~/components/ui/local-time";
import { Toast, type ToastMessage } from "~/components/ui/toast";
import type { Role } from "~/shared/roles";
import { api, errorMessage, fieldErrors } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";
import { useFreshDashboard } from "./publication-switcher";

type Members = Awaited<ReturnType<typeof api.members.list.query>>;
type Member = Members["members"][number];
type Invitation = Members["invitations"][number];

const LIST_KEY = trpc.members.list.queryKey();

/** The roles as the page names them, with what each may do (docs/teams.md). */
export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  administrator: "Administrator",
  editor: "Editor",
  author: "Author",
  contributor: "Contributor",
};

const ROLE_HINTS: Record<Role, string> = {
  owner: "Everything, and deletes or transfers the publication.",
  administrator: "Everything but ownership: members, keys, webhooks, settings.",
  editor: "Every post, tag, image and subscriber; invites authors and contributors.",
  author: "Writes, publishes and deletes their own posts.",
  contributor: "Writes their own drafts and submits them for review.",
};

/** A card whose rows run to its edges, each with its own padding. */
const LIST_BOX = "rounded-lg border border-slate-200 bg-white shadow-xs";

const SELECT =
  "h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:bg-slate-50";


export function MembersPanel() {
  const members = useQuery({ queryKey: LIST_KEY, queryFn: () => api.members.list.query() });
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const notify = (text: string) => setToast({ id: Date.now(), text });

  if (members.error) return <LoadError what="the members" error={members.error} onRetry={() => void members.refetch()} retrying={members.isFetching} />;
  if (!members.data) {
    return (
      <Loading label="Loading the members" className="space-y-3">
        <Skeleton className="h-10 w-40" />
        <Skeleton className="h-40 w-full" />
      </Loading>
    );
  }
  const { you, publication } = members.data;
  return (
    <div className="space-y-6">
      {you.invitableRoles.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <InviteDialog roles={you.invitableRoles} onInvited={notify} />
          <p className="text-sm text-slate-600">Invitations are emailed, work once and expire after 7 days.</p>
        </div>
      )}
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-base font-semibold text-slate-900">
          Members of {publication.name}
        </h2>
        <div className={LIST_BOX}>
          <ul className="divide-y divide-slate-100">
            {members.data.members.map((member) => (
              <MemberRow key={member.id} member={member} publication={publication.name} onDone={notify} />
            ))}
          </ul>
        </div>
      </section>
      {you.invitableRoles.length > 0 && (
        <section aria-labelledby="invitations-heading" className="space-y-3">
          <h2 id="invitations-heading" className="text-base font-semibold text-slate-900">
            Pending invitations
          </h2>
          {members.data.invitations.length === 0 ? (
            <p className="text-sm text-slate-600">No invitation is waiting for an answer.</p>
          ) : (
            <div className={LIST_BOX}>
              <ul className="divide-y divide-slate-100">
                {members.data.invitations.map((invitation) => (
                  <InvitationRow key={invitation.id} invitation={invitation} onDone={notify} />
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
      <RolesCard />
      <Toast message={toast} onDismiss={() => setToast(null)} />
    </div>
  );
}

function MemberRow({ member, publication, onDone }: { member: Member; publication: string; onDone: (text: string) => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: LIST_KEY });
  // Having left, the viewer works in another of their publications (or none): the dashboard is read again.
  const leaveFor = useFreshDashboard();
  const changeRole = useMutation({
    mutationFn: (role: Role) => api.members.changeRole.mutate({ memberId: member.id, role }),
    onMutate: () => setError(""),
    onSuccess: ({ role }) => {
      onDone(`${member.name} is now ${/^[aeiou]/i.test(role) ? "an" : "a"} ${ROLE_LABELS[role].toLowerCase()}.`);
      void refresh();
    },
    onError: (e) => setError(errorMessage(e)),
  });
  const remove = useMutation({
    mutationFn: () => api.members.remove.mutate({ memberId: member.id }),
    onMutate: () => setError(""),
    onSuccess: ({ left }) => {
      if (left) return leaveFor("/dashboard");
      onDone(`${member.name} was removed from ${publication}.`);
      void refresh();
    },
    onError: (e) => setError(errorMessage(e)),
  });
  const selectId = `role-${member.id}`;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium wrap-anywhere text-slate-900">
          {member.name} {member.isYou && <Badge tone="indigo">You</Badge>}
        </p>
        <p className="text-sm wrap-anywhere text-slate-600">{member.email}</p>
        <p className="text-xs text-slate-600">
          Joined <LocalTime iso={member.joinedAt} />
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {member.assignableRoles.length > 0 ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {member.name}
            </label>
            <select
              id={selectId}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(event) => changeRole.mutate(event.target.value as Role)}
              className={SELECT}
            >
              {member.assignableRoles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          </>
        ) : (
          <Badge tone={member.role === "owner" ? "indigo" : "neutral"}>{ROLE_LABELS[member.role]}</Badge>
        )}
        {member.canReceiveOwnership && <TransferDialog member={member} publication={publication} />}
        {member.removable && (
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="secondary">
                {member.isYou ? "Leave" : "Remove"}
                {!member.isYou && <span className="sr-only"> {member.name}</span>}
              </Button>
            }
            title={member.isYou ? `Leave ${publication}?` : `Remove ${member.name}?`}
            description={
              member.isYou
                ? "You lose access to its blogs and settings at once. To come back, you need a new invitation."
                : `${member.name} loses access to ${publication} at once, on every device. Their posts and the API keys they made stay.`
            }
            confirmLabel={member.isYou ? "Leave" : "Remove"}
            onConfirm={() => remove.mutate()}
            busy={remove.isPending}
          />
        )}
      </div>
      {error && (
        <p role="alert" className="basis-full text-sm text-red-600">
          {error}
        </p>
      )}
    </li>
  );
}

function InvitationRow({ invitation, onDone }: { invitation: Invitation; onDone: (text: string) => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  const revoke = useMutation({
    mutationFn: () => api.members.revokeInvitation.mutate({ invitationId: invitation.id }),
    onSuccess: () => {
      onDone(`The invitation to ${invitation.email} was revoked.`);
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (e) => setError(errorMessage(e)),
  });
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium wrap-anywhere text-slate-900">{invitation.email}</p>
        <p className="text-xs text-slate-600">
          {ROLE_LABELS[invitation.role]}
          {invitation.invitedBy && <> · invited by {invitation.invitedBy}</>} · expires <LocalTime iso={invitation.expiresAt} />
        </p>
      </div>
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="secondary">
            Revoke<span className="sr-only"> the invitation to {invitation.email}</span>
          </Button>
        }
        title={`Revoke the invitation to ${invitation.email}?`}
        description="Its link stops working at once. You can invite the address again later."
        confirmLabel="Revoke"
        onConfirm={() => revoke.mutate()}
        busy={revoke.isPending}
      />
      {error && (
        <p role="alert" className="basis-full text-sm text-red-600">
          {error}
        </p>
      )}
    </li>
  );
}

const INVITE_FIELDS = ["email", "role"] as const;

function InviteDialog({ roles, onInvited }: { roles: Role[]; onInvited: (text: string) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<(typeof INVITE_FIELDS)[number] | "form", string>>>({});
  const invite = useMutation({
    mutationFn: (input: { email: string; role: Role }) => api.members.invite.mutate(input),
    onSuccess: (invitation) => {
      onInvited(`Invitation emailed to ${invitation.email}.`);
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
      setOpen(false);
    },
    onError: (e) => setErrors(fieldErrors(e, INVITE_FIELDS)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setErrors({});
    invite.mutate({ email: String(form.get("email") ?? "").trim(), role: String(form.get("role")) as Role });
  }

  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
      }}
    >
      <DialogPrimitive.Trigger asChild>
        <Button>Invite a member</Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Invite a member</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            We email them a link to join. It works once, for 7 days, signed in with this address.
          </DialogPrimitive.Description>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-2">
            <Field label="Email address" error={errors.email}>
              {(props) => <Input {...props} name="email" type="email" autoComplete="off" required />}
            </Field>
            <Field label="Role" hint={<RoleHint roles={roles} />} error={errors.role}>
              {(props) => (
                <select
                  id={props.id}
                  aria-describedby={props["aria-describedby"]}
                  aria-invalid={props.invalid || undefined}
                  name="role"
                  defaultValue={roles.includes("author") ? "author" : roles[0]}
                  className={`${SELECT} h-10 w-full`}
                >
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <p role="alert" className="text-sm text-red-600">
              {errors.form}
            </p>
            <FormDialogActions submitLabel="Send invitation" busy={invite.isPending} />
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function RoleHint({ roles }: { roles: Role[] }) {
  return <>You may invite {roles.map((role) => ROLE_LABELS[role].toLowerCase()).join(", ")}s. See what each may do below.</>;
}

function TransferDialog({ member, publication }: { member: Member; publication: string }) {
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<"password" | "form", string>>>({});
  // Now an administrator: the page is read again with what that role may do.
  const leaveFor = useFreshDashboard();
  const transfer = useMutation({
    mutationFn: (password: string) => api.members.transferOwnership.mutate({ memberId: member.id, password }),
    onSuccess: () => leaveFor("/dashboard/members"),
    onError: (e) => setErrors(fieldErrors(e, ["password"] as const)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    transfer.mutate(String(new FormData(event.currentTarget).get("password") ?? ""));
  }

  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
      }}
    >
      <DialogPrimitive.Trigger asChild>
        <Button size="sm" variant="secondary">
          Make owner<span className="sr-only"> ({member.name})</span>
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Transfer {publication} to {member.name}?</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            {member.name} becomes its owner, who alone may delete or transfer it; you become an administrator. Only they can give it back.
          </DialogPrimitive.Description>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-2">
            <Field label="Your password" error={errors.password}>
              {(props) => <Input {...props} name="password" type="password" autoComplete="current-password" required />}
            </Field>
            <p role="alert" className="text-sm text-red-600">
              {errors.form}
            </p>
            <FormDialogActions submitLabel="Transfer ownership" busy={transfer.isPending} />
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function RolesCard() {
  return (
    <Card>
      <CardTitle>What each role may do</CardTitle>
      <dl className="mt-3 space-y-2 text-sm">
        {(Object.keys(ROLE_HINTS) as Role[]).map((role) => (
          <div key={role} className="flex flex-wrap gap-x-2">
            <dt className="font-medium text-slate-900">{ROLE_LABELS[role]}</dt>
            <dd className="text-slate-600">{ROLE_HINTS[role]}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
