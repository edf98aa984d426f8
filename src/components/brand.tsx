import Link from "next/link";

export function Brand({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="flex shrink-0 items-center gap-2 rounded-md font-semibold whitespace-nowrap text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
      <span aria-hidden className="grid size-7 place-items-center rounded-md bg-indigo-600 text-sm font-bold text-white">
        B
      </span>
      Blog Manager
    </Link>
  );
}
