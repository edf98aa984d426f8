import type { Metadata } from "next";
import { KeyActivityPanel } from "~/components/dashboard/key-activity";

export const metadata: Metadata = { title: "Key activity" };

export default async function KeyActivityPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <KeyActivityPanel id={id} />;
}
