import type { AnyRoute } from "../route.ts";
import { ACCOUNT_ROUTES } from "./account.ts";
import { ACCOUNT_CONNECTION_ROUTES } from "./accounts.ts";
import { ANALYTICS_ROUTES } from "./analytics.ts";
import { MEDIA_ROUTES } from "./media.ts";
import { POST_ROUTES } from "./posts.ts";
import { SANDBOX_ACCOUNT_ROUTES } from "./sandbox-accounts.ts";
import { SYSTEM_ROUTES } from "./system.ts";
import { WEBHOOK_ROUTES } from "./webhooks.ts";

/**
 * Every operation the service serves, one file per resource. Registration and the OpenAPI document
 * both come from here, in this order (the document lists its paths in it).
 */
export const ROUTES: readonly AnyRoute[] = [
  ...ACCOUNT_ROUTES,
  ...POST_ROUTES,
  ...ACCOUNT_CONNECTION_ROUTES,
  ...ANALYTICS_ROUTES,
  ...MEDIA_ROUTES,
  ...SANDBOX_ACCOUNT_ROUTES,
  ...WEBHOOK_ROUTES,
  ...SYSTEM_ROUTES,
];
