import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { getSessionUser, invitationPageState, type InvitationState } from "@blogmgr/server";
import { AuthCard } from "~/components/auth/auth-card";
import { SignOutButton } from "~/components/auth/sign-out-button";
import { JoinButton } from "~/components/invitations/join-button";
import { buttonClasses } from "~/components/ui/button";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

const article = (role: string) => (/^[aeiou]/.test(role) ? "an" : "a");

/**
 * An invitation's link (docs/teams.md, docs/dashboard.md, Members): signed in with the invited
 * address, a button joins the publication; signed out, sign in or sign up and come back here
 * (safeNextPath accepts this page); another account, or an invitation expired, used or revoked,
 * a message saying so. The link is its only secret: an unknown one tells nothing.
 */
export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getSessionUser(await headers());
  const state = await invitationPageState(id, user && { userId: user.userId, email: user.email });
  const here = `/invitations/${encodeURIComponent(id)}`;
  const { title, body, footer } = view(state, here, id);
  return (
    <AuthCard title={title} footer={footer}>
      {body}
    </AuthCard>
  );
}

function view(state: InvitationState, here: string, id: string): { title: string; body: ReactNode; footer: ReactNode } {
  const dashboard = (
    <Link href="/dashboard" className="font-medium text-indigo-700 underline">
      Go to the dashboard
    </Link>
  );
  switch (state.state) {
    case "ready":
      return {
        title: `Join ${state.publication}`,
        body: (
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              {state.invitedBy ? `${state.invitedBy} invites you` : "You are invited"} to work on <strong>{state.publication}</strong> as{" "}
              {article(state.role)} {state.role}, signed in as {state.email}.
            </p>
            <JoinButton invitationId={id} label={`Join ${state.publication} as ${state.role}`} />
          </div>
        ),
        footer: dashboard,
      };
    case "sign-in": {
      const next = encodeURIComponent(here);
      return {
        title: `Join ${state.publication}`,
        body: (
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              You are invited to work on <strong>{state.publication}</strong> as {article(state.role)} {state.role}. Sign in with {state.email}, or
              create an account with that address, to join.
            </p>
            <Link href={`/sign-in?next=${next}`} className={buttonClasses("primary", "md", "w-full")}>
              Sign in to join
            </Link>
            <Link href={`/sign-up?next=${next}`} className={buttonClasses("secondary", "md", "w-full")}>
              Create an account
            </Link>
          </div>
        ),
        footer: "The invitation works once, for 7 days.",
      };
    }
    case "wrong-account":
      return {
        title: "This invitation is for someone else",
        body: (
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              The invitation to {state.publication} was sent to {state.email}, and you are signed in as {state.signedInAs}. Sign out, then sign in with
              the invited address.
            </p>
            <SignOutButton className="w-full border border-slate-300" then={`/sign-in?next=${encodeURIComponent(here)}`} label="Sign out and switch account" />
          </div>
        ),
        footer: dashboard,
      };
    case "already-member":
      return {
        title: `You are already in ${state.publication}`,
        body: <p className="text-sm text-slate-700">Nothing more to do: switch to it from the dashboard&apos;s header.</p>,
        footer: dashboard,
      };
    case "expired":
      return {
        title: "This invitation has expired",
        body: <p className="text-sm text-slate-700">Invitations to {state.publication} work for 7 days. Ask whoever invited you for a new one.</p>,
        footer: dashboard,
      };
    case "used":
      return {
        title: "This invitation was already used",
        body: <p className="text-sm text-slate-700">An invitation to {state.publication} works once. If you joined, open the dashboard; if not, ask for a new one.</p>,
        footer: dashboard,
      };
    case "revoked":
      return {
        title: "This invitation was revoked",
        body: <p className="text-sm text-slate-700">The invitation to {state.publication} was withdrawn. Ask whoever invited you if this is a mistake.</p>,
        footer: dashboard,
      };
    case "not-found":
      return {
        title: "Invitation not found",
        body: <p className="text-sm text-slate-700">Check that the link is the one in the email, whole. Invitations work once, for 7 days.</p>,
        footer: dashboard,
      };
  }
}
