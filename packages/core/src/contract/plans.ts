import { z } from "zod";

export const PLAN_NAMES = ["free", "creator", "studio"] as const;
export const PlanName = z.enum(PLAN_NAMES).meta({ id: "PlanName" });
export type PlanName = z.infer<typeof PlanName>;

export interface PlanLimits {
  readonly profiles: number;
  /** null means unlimited. */
  readonly posts_per_month: number | null;
  readonly api_calls_per_month: number;
}

export const PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  free: { profiles: 3, posts_per_month: 30, api_calls_per_month: 1000 },
  creator: { profiles: 12, posts_per_month: 300, api_calls_per_month: 10000 },
  studio: { profiles: 50, posts_per_month: null, api_calls_per_month: 100000 },
};
