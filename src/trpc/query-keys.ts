import type { QueryKey } from "@tanstack/react-query";
import { createTRPCRecursiveProxy, type AnyTRPCQueryProcedure, type inferProcedureInput, type TRPCRouterRecord } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type QueryKeys<Procedures extends TRPCRouterRecord> = {
  [Name in keyof Procedures as Procedures[Name] extends AnyTRPCQueryProcedure | TRPCRouterRecord ? Name : never]: Procedures[Name] extends AnyTRPCQueryProcedure
    ? { queryKey(input?: Partial<inferProcedureInput<Procedures[Name]>>): QueryKey }
    : Procedures[Name] extends TRPCRouterRecord
      ? QueryKeys<Procedures[Name]>
      : never;
};

/**
 * The dashboard's TanStack Query keys, made from the app router's queries, so that a renamed
 * procedure or a changed input is a type error: `trpc.blogs.list.queryKey(input)` is
 * ["blogs.list", input]. Given part of an input, or none, a key matches every query of the
 * procedure whose input holds that part (TanStack's partial matching), as invalidations want.
 * Named as in @trpc/tanstack-react-query, which has no release for this @trpc/server yet (./react.tsx).
 */
export const trpc = createTRPCRecursiveProxy(({ path, args }) => {
  // The last part of the path is "queryKey".
  const procedure = path.slice(0, -1).join(".");
  return args[0] === undefined ? [procedure] : [procedure, args[0]];
}) as QueryKeys<AppRouter["_def"]["record"]>;
