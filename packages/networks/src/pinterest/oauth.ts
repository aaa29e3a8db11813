import { type ConnectedAccount, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";
import { chooseBoard } from "./boards.ts";

export { PINTEREST_DEFAULT_SCOPES } from "./describe.ts";

/**
 * What the server asks Pinterest for: reading the account and its boards, and creating pins. Pinterest's
 * description requires boards:read, boards:write, pins:read and pins:write of `POST /v5/pins`.
 */

export type PinterestOAuthConfig = OAuthStepsConfig<PinterestApiConfig>;

interface AccountAnswer {
  username?: string;
  follower_count?: number | null;
}

/**
 * Pinterest's OAuth 2.0 authorization code flow (no PKCE: Pinterest does not take it; the client
 * secret proves the app). Access tokens last 30 days; refresh tokens are continuous (60 days, renewed by
 * each refresh, the new one answered with it), so the pair is stored before it is used. The board pins go
 * to is chosen at connect: the connect's `board` field, or the account's first board.
 */
export function pinterestOAuth(config: PinterestOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    startFields(fields): Record<string, string> {
      const board = fields.board;
      if (board === undefined) return {};
      if (typeof board !== "string" || board.trim().length === 0 || board.length > 200) {
        throw new NetworkError(
          "pinterest",
          "refused",
          "board must be the name or id of one of the Pinterest account's boards (up to 200 characters); leave it out to pin to the account's first board.",
        );
      }
      return { board: board.trim() };
    },
    // Pinterest separates scopes with commas.
    authorizeUrl: (request) => authorizeUrl(config, request, { scopeSeparator: "," }),
    async exchange(request): Promise<ConnectedAccount> {
      const { fields, signal } = request;
      const answer = await exchangeCode(client, request);
      const token = answer.access_token;
      const me = (await pinterestCall(
        api,
        token,
        "GET",
        "/user_account",
        undefined,
        signal,
        true,
      )) as AccountAnswer;
      const board = await chooseBoard(api, token, fields.board, signal);
      const username = me.username ?? "pinterest";
      return {
        handle: `@${username} (${board.name})`,
        followers: me.follower_count ?? 0,
        health: "healthy",
        credentials: { ...grantOf(answer, api.now()), username, board_id: board.id, board_name: board.name },
      };
    },
    refresh: (credentials, signal) => refreshGrant(client, credentials, api.now, signal),
  };
}
