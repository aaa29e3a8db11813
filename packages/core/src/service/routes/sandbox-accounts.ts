import { SandboxAccountBody } from "../../contract/requests.ts";
import { Account } from "../../contract/resources.ts";
import { setSandboxAccountHealth } from "../handlers/connect-accounts.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { accountNotFound, platformParam } from "./params.ts";

/** Sandbox accounts: set a test account's health. */
export const SANDBOX_ACCOUNT_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "PATCH",
    path: "/sandbox/accounts/{platform}",
    operationId: "setSandboxAccountHealth",
    tag: "Sandbox",
    summary: "Set a sandbox account's health, as a network would (test keys only)",
    auth: true,
    params: platformParam,
    body: { schema: SandboxAccountBody },
    responses: {
      200: { description: "The account.", schema: Account },
      403: { description: "A live key was used." },
      404: accountNotFound,
    },
    handler: setSandboxAccountHealth,
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/accounts/{platform}",
    operationId: "setSandboxAccountHealthByPost",
    tag: "Sandbox",
    summary: "Set a sandbox account's health (POST form of the PATCH; test keys only)",
    description:
      "The same as PATCH /sandbox/accounts/{platform}, for clients that only send POST. Turning reauth_required makes publishing to that network fail and writes account.disconnected.",
    auth: true,
    params: platformParam,
    body: { schema: SandboxAccountBody },
    responses: {
      200: { description: "The account.", schema: Account },
      403: { description: "A live key was used." },
      404: accountNotFound,
    },
    handler: setSandboxAccountHealth,
  }),
];
