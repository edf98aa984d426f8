import "server-only";
import { headers } from "next/headers";
import { requestOrigin } from "./public-origin";

/**
 * The origin of the page being rendered, for its canonical and og:url links (./public-origin.ts).
 * A forged Host only changes the links of its own answer, which no shared cache keeps (the public
 * pages are rendered per request and not cacheable).
 */
export async function pageOrigin(): Promise<string> {
  return requestOrigin(await headers());
}
