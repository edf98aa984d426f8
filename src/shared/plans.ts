import { Plan } from "~/generated/prisma/enums";

/** An account's plan: the schema's enum (prisma/schema.prisma), the one Plan type of the app. */
export type { Plan };

export const PLANS = Object.values(Plan);

/** How the dashboard names each plan. */
export const PLAN_NAMES: Record<Plan, string> = { free: "Free", pro: "Pro", enterprise: "Enterprise" };

/** API requests an account may make per UTC clock hour, its keys together (README, The API). */
export const PLAN_HOURLY_LIMITS: Record<Plan, number> = { free: 100, pro: 1_000, enterprise: 10_000 };
