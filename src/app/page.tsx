import { headers } from "next/headers";
import Link from "next/link";
import { Brand } from "~/components/brand";
import { buttonClasses } from "~/components/ui/button";
import { getSessionUser } from "@blogmgr/server";

const FEATURES = [
  ["Write in Markdown", "Every field of a blog, with a live preview, validated by the same rules as the API."],
  ["Publish when ready", "Public blogs are readable at /{handle}/{slug}, with their own title and description for search engines."],
  ["A REST API with keys", "Keys with permissions and expirations, rate limits per plan, and usage per day, key and endpoint."],
] as const;

/** The landing page; an owner already signed in is offered the dashboard rather than sign-in and sign-up. */
export default async function HomePage() {
  const user = await getSessionUser(await headers());
  return (
    <div className="min-h-screen">
      <header className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-4">
        <Brand />
        <nav className="flex min-w-0 flex-wrap items-center justify-end gap-2" aria-label="Account">
          {user ? (
            <Link href="/dashboard" className={buttonClasses("primary", "sm")}>
              Dashboard
            </Link>
          ) : (
            <>
              <Link href="/sign-in" className={buttonClasses("ghost", "sm")}>
                Sign in
              </Link>
              <Link href="/sign-up" className={buttonClasses("primary", "sm")}>
                {/* Shorter on a phone, so that the header keeps to one line. */}
                <span className="sm:hidden">Sign up</span>
                <span className="hidden sm:inline">Create account</span>
              </Link>
            </>
          )}
        </nav>
      </header>
      <main className="mx-auto max-w-5xl px-4 pt-12 pb-20">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">Your blogs, in the browser and over an API.</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-600">
          Write and publish blogs from a dashboard; let your programs read and write the same blogs over a REST API
          at <code className="rounded bg-slate-100 px-1 font-mono text-base">/api/v1</code>, authenticated by API keys.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          {!user && (
            <Link href="/sign-up" className={buttonClasses("primary")}>
              Get started
            </Link>
          )}
          <Link href="/dashboard" className={buttonClasses("secondary")}>
            Go to the dashboard
          </Link>
        </div>
        <ul className="mt-14 grid gap-4 sm:grid-cols-3">
          {FEATURES.map(([title, text]) => (
            <li key={title} className="rounded-lg border border-slate-200 bg-white p-5">
              <h2 className="font-semibold text-slate-900">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
        <section className="mt-14 rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="api-docs">
          <h2 id="api-docs" className="font-semibold text-slate-900">
            API documentation
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            The API is described by its OpenAPI document:{" "}
            <a href="/api/v1/openapi.json" className="font-medium text-indigo-700 underline">
              /api/v1/openapi.json
            </a>
            . Signed in, the dashboard&apos;s{" "}
            <Link href="/dashboard/api" className="font-medium text-indigo-700 underline">
              API reference
            </Link>{" "}
            renders it as interactive documentation.
          </p>
        </section>
      </main>
    </div>
  );
}
