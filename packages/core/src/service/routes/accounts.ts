import { z } from "zod";
import { ConnectAccountBody } from "../../contract/requests.ts";
import { Account, AccountList, DeleteResult, OAuthConnectStart } from "../../contract/resources.ts";
import { listAccounts } from "../handlers/accounts.ts";
import { connectAccount, disconnectAccount } from "../handlers/connect-accounts.ts";
import { finishOAuthConnect } from "../oauth/finish-connect.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { accountNotFound, platformParam } from "./params.ts";

/** Connected network accounts: list, connect (pasted or OAuth), disconnect. */
export const ACCOUNT_CONNECTION_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/accounts",
    operationId: "listAccounts",
    tag: "Accounts",
    summary: "The connected social profiles",
    auth: true,
    responses: { 200: { description: "Connected accounts, in network order.", schema: AccountList } },
    handler: listAccounts,
  }),
  defineRoute({
    method: "POST",
    path: "/accounts/connect",
    operationId: "connectAccount",
    tag: "Accounts",
    summary: "Connect a network account (in sandbox, at once)",
    description:
      "Answers 201 for a new account, 200 when it was already connected (reconnecting it). With a live key, a network that connects through OAuth (x, …) answers 201 with the network's authorize URL instead; the account is connected when the network sends the user back to GET /accounts/callback/{platform}.",
    auth: true,
    body: { schema: ConnectAccountBody },
    responses: {
      201: {
        description:
          "The connected account; or, for an OAuth network with a live key, where to grant access.",
        schema: z.union([Account, OAuthConnectStart]),
      },
      200: { description: "The account was already connected and is reconnected.", schema: Account },
      400: {
        description:
          "The plan's connected profiles are all in use; or, with a live key, the network refused the credentials, or this server cannot connect that network.",
      },
      502: { description: "Live key: the network could not be reached to check the credentials." },
      503: {
        description:
          "Live key: this server has no secret key to keep network credentials with (SOCIALPUB_SECRET_KEY).",
      },
    },
    handler: connectAccount,
  }),
  defineRoute({
    method: "GET",
    path: "/accounts/callback/{platform}",
    operationId: "finishOAuthConnect",
    tag: "Accounts",
    summary: "Where an OAuth network sends the user back (a browser page)",
    description:
      "Takes no API key: the single-use `state` from POST /accounts/connect, 15 minutes long, names the user. Trades `code` for tokens, stores them sealed, sends account.connected, and answers a small HTML page saying the account is connected, or why not (the user declined, the link was used or expired, the network refused).",
    auth: false,
    page: true,
    params: platformParam,
    responses: {
      200: { description: "HTML: the account is connected." },
      400: { description: "HTML: nothing was connected, and why." },
      404: { description: "HTML: this server does not connect that network through OAuth." },
      502: { description: "HTML: the network could not be reached to finish." },
    },
    handler: finishOAuthConnect,
  }),
  defineRoute({
    method: "DELETE",
    path: "/accounts/{platform}",
    operationId: "disconnectAccount",
    tag: "Accounts",
    summary: "Disconnect a network account",
    auth: true,
    params: platformParam,
    responses: { 200: { description: "Disconnected.", schema: DeleteResult }, 404: accountNotFound },
    handler: disconnectAccount,
  }),
];
