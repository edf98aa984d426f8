import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { parseTheme, THEME_COOKIE, themeAttribute } from "~/lib/theme";
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
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={themeAttribute(theme)}>
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
