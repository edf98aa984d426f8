// `@blogmgr/server` is the server core compiled into node_modules by `npm run build`
// (scripts/lib/server-core.ts), with no types of its own: they are those of its sources.
declare module "@blogmgr/server" {
  export * from "~/server/index";
}
