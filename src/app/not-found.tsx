import Link from "next/link";
import { Brand } from "~/components/brand";
import { buttonClasses } from "~/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center px-4 text-center">
      <Brand />
      <h1 className="mt-8 text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="mt-2 text-slate-600">There is nothing here, or it isn&apos;t public.</p>
      <Link href="/" className={buttonClasses("secondary", "md", "mt-6")}>
        Home
      </Link>
    </div>
  );
}
