import { CreateKeyBody } from "../../contract/requests.ts";
import { ApiKeyList, CreatedApiKey, CurrentUser, DeleteResult } from "../../contract/resources.ts";
import { createKey, deleteKey, listKeys } from "../handlers/keys.ts";
import { getMe } from "../handlers/me.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { keyId } from "./params.ts";

/** The account: who the key belongs to, and its API keys. */
export const ACCOUNT_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/me",
    operationId: "getMe",
    tag: "Account",
    summary: "The current user, plan limits and this month's usage",
    auth: true,
    responses: { 200: { description: "The current user.", schema: CurrentUser } },
    handler: getMe,
  }),
  defineRoute({
    method: "GET",
    path: "/keys",
    operationId: "listKeys",
    tag: "Keys",
    summary: "The account's API keys, each with a hint, never the key itself",
    description:
      "Keys not revoked, oldest first. A test key lists test keys only; a live key lists both. last_used_at is kept to the minute: a key's use is written at most once a minute.",
    auth: true,
    responses: { 200: { description: "The keys.", schema: ApiKeyList } },
    handler: listKeys,
  }),
  defineRoute({
    method: "POST",
    path: "/keys",
    operationId: "createKey",
    tag: "Keys",
    summary: "Create a test or live key; the key is shown only in this answer",
    description:
      "The service keeps only the key's hash, so this answer is not kept for replay and the operation takes no Idempotency-Key (one sent is ignored). Should the answer be lost, the key made is listed by GET /keys (by its name and time): revoke it and create another.",
    auth: true,
    idempotencyKey: false,
    body: { schema: CreateKeyBody },
    responses: {
      201: { description: "The key, shown once.", schema: CreatedApiKey },
      400: { description: "mode is missing or unknown, name is empty or too long, or 50 keys are active." },
      403: { description: "A test key asked for a live key: a test key manages test keys only." },
    },
    handler: createKey,
  }),
  defineRoute({
    method: "DELETE",
    path: "/keys/{id}",
    operationId: "revokeKey",
    tag: "Keys",
    summary: "Revoke a key: every call with it is refused from now on, on every instance",
    description: "The key making the request may revoke itself: the answer is 200, and its next call 401.",
    auth: true,
    params: keyId,
    responses: {
      200: { description: "Revoked.", schema: DeleteResult },
      403: { description: "A test key asked to revoke a live key: a test key manages test keys only." },
      404: { description: "No active key with that id belongs to the account (`API key not found.`)." },
    },
    handler: deleteKey,
  }),
];
