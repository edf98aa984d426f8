"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { DIALOG_CONTENT, DIALOG_OVERLAY, FormDialogActions } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import { SUBSCRIBER_NAME_MAX_LENGTH } from "~/shared/subscribers";
import { api, fieldErrors } from "~/trpc/react";
import { refreshSubscribers, STATUS_LABELS } from "./subscribers-client";

const ADD_FIELDS = ["email", "name"] as const;

/** `onAdded` gets the sentence saying what became of the address. */
export function AddSubscriberDialog({ onAdded }: { onAdded: (notice: string) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<(typeof ADD_FIELDS)[number] | "form", string>>>({});
  const add = useMutation({
    mutationFn: (input: { email: string; name: string }) => api.subscribers.add.mutate(input),
    onSuccess: ({ subscriber, created }) => {
      void refreshSubscribers(queryClient);
      // An address already there comes back as it is (docs/newsletters.md): say so rather than "added".
      onAdded(created ? `Added ${subscriber.email}.` : `${subscriber.email} was already on your list (${STATUS_LABELS[subscriber.status].toLowerCase()}); it was left as it is.`);
      setOpen(false);
    },
    onError: (e) => setErrors(fieldErrors(e, ADD_FIELDS)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setErrors({});
    add.mutate({ email: String(form.get("email") ?? ""), name: String(form.get("name") ?? "") });
  }

  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
        if (next) onAdded("");
      }}
    >
      <DialogPrimitive.Trigger asChild>
        <Button>Add subscriber</Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Add a subscriber</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            Add only someone who asked for your posts: they are active at once, with no confirmation email.
          </DialogPrimitive.Description>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-2">
            <Field label="Email address" error={errors.email}>
              {(props) => <Input {...props} name="email" type="email" autoComplete="off" required />}
            </Field>
            <Field label="Name" hint="Optional." error={errors.name}>
              {(props) => <Input {...props} name="name" maxLength={SUBSCRIBER_NAME_MAX_LENGTH} autoComplete="off" />}
            </Field>
            <p role="alert" className="text-sm text-red-600">
              {errors.form}
            </p>
            <FormDialogActions submitLabel="Add" busy={add.isPending} />
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
