import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Blog Manager", template: "%s · Blog Manager" },
  description: "Manage your blogs in the browser and over a REST API.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so that Next can put the request's CSP nonce on its
  // scripts (docs/security.md): a page prerendered at build time would carry none and not run.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
