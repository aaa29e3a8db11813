import type { NetworkId } from "@socialpub/core";
import { expect } from "vitest";
import type { LiveOAuthServer } from "./live-oauth-server.ts";
import { until } from "./oauth-browser.ts";

/*
 * The cases every OAuth network's end-to-end test runs against its grant, written once and driven by
 * a table row per network: a token that lapsed mid-schedule is refreshed (twice, so the refresh token
 * the first refresh left is the one the second spends), a used-up limit keeps a post waiting, a grant
 * the user removed turns the account reauth_required with one account.disconnected, and no token ever
 * shows in an answer or an event. Each case runs on the suite's server and account, after the
 * network's own cases have connected it (and, for networks that need one, uploaded the media).
 */

interface TokenRequest {
  grantType: string;
  status: number;
}

export interface GrantNetwork {
  platform: NetworkId;
  /** What a post to the network carries beside its caption: media, where the network needs one. */
  post(): Record<string, unknown>;
  /** Ends the access tokens the network gave out before their time, so the next call answers 401. */
  expireAccessTokens?(): void;
  /** The requests the network's token endpoint answered; absent where the server never refreshes. */
  tokenRequests?(): readonly TokenRequest[];
  /** Uses up the network's publishing limit for the account (`restore` lifts it again). */
  limit: { useUp(): void; restore(): void; error: RegExp };
  /** Removes the app's access, as the user does on the network's own pages. */
  revokeAccess(): void;
  /** What a publish says once the network refuses the grant. */
  refusedError: RegExp;
  /** Every token the network gave out. */
  secrets(): string[];
}

export interface GrantCase {
  name: string;
  run(): Promise<void>;
}

export function grantCases(
  n: GrantNetwork,
  live: () => LiveOAuthServer,
): Record<"lapse" | "limit" | "refused" | "secrets", GrantCase> {
  const publish = (caption: string, extra: Record<string, unknown> = {}) =>
    live().call("POST", "/posts", { caption, platforms: [n.platform], ...n.post(), ...extra });
  const targetOf = async (postId: string) =>
    (await live().call("GET", `/posts/${postId}/targets`)).body.data[0];
  const refreshes = () => n.tokenRequests!().filter((r) => r.grantType === "refresh_token");

  return {
    lapse: {
      name: "a token that ended mid-schedule is refreshed and the post goes out, and again on the refresh token kept",
      async run() {
        const { store, userId } = live();
        const before = await store.getAccount(userId, "live", n.platform);
        // The network ends the token before the server thought it would: it answers 401, the server
        // refreshes once and publishes.
        n.expireAccessTokens!();
        const scheduled = await publish("Scheduled while the token lapses", {
          schedule_at: Date.now() + 1500,
        });
        expect(scheduled).toMatchObject({ status: 201, body: { status: "scheduled" } });
        const done = await until(
          async () => (await live().call("GET", `/posts/${scheduled.body.id}`)).body,
          (p) => p.status !== "scheduled" && p.status !== "publishing",
        );
        expect(done.status).toBe("published");
        expect(n.tokenRequests!().at(-1)).toEqual({ grantType: "refresh_token", status: 200 });
        const after = await store.getAccount(userId, "live", n.platform);
        expect(after!.credentials).not.toBe(before!.credentials);
        expect(after!.health).toBe("healthy");
        // A second lapse spends the refresh token the first refresh left (rotated or not): it works
        // only if that one was kept.
        n.expireAccessTokens!();
        expect((await publish("Once more after a lapse")).body.status).toBe("published");
        expect(refreshes()).toEqual([
          { grantType: "refresh_token", status: 200 },
          { grantType: "refresh_token", status: 200 },
        ]);
      },
    },
    limit: {
      name: "a used-up limit keeps the post waiting until the network's reset, with its reason",
      async run() {
        n.limit.useUp();
        try {
          const res = await publish("Over the limit");
          expect(res.status).toBe(201);
          const target = await targetOf(res.body.id);
          expect(target.status).toBe("pending");
          expect(target.error).toMatch(n.limit.error);
        } finally {
          n.limit.restore();
        }
      },
    },
    refused: {
      name: "a grant the network refuses turns the account reauth_required and sends account.disconnected",
      async run() {
        n.revokeAccess();
        const res = await publish("After revoking");
        expect(res.body.status).toBe("draft");
        const target = await targetOf(res.body.id);
        expect(target.status).toBe("failed");
        expect(target.error).toMatch(n.refusedError);
        if (n.tokenRequests) {
          expect(n.tokenRequests().at(-1)).toEqual({ grantType: "refresh_token", status: 400 });
        }
        const account = await until(
          async () => (await live().call("GET", "/accounts")).body.data[0],
          (a) => a.health === "reauth_required",
        );
        expect(account.health).toBe("reauth_required");
        const types = (await live().store.listEvents(live().userId)).map((e) => e.type);
        expect(types.filter((t) => t === "account.disconnected")).toHaveLength(1);
      },
    },
    secrets: {
      name: "never shows a token",
      async run() {
        const events = JSON.stringify(await live().store.listEvents(live().userId));
        const secrets = n.secrets();
        expect(secrets.length).toBeGreaterThan(0);
        for (const secret of secrets) {
          expect(events).not.toContain(secret);
          for (const answer of live().seen) expect(answer).not.toContain(secret);
        }
      },
    },
  };
}

/** The access and refresh tokens of an OAuth fake's grants. */
export const grantSecrets = (
  grants: Iterable<{ accessToken: string; refreshToken: string | null }>,
): string[] =>
  [...grants].flatMap((g) => [g.accessToken, g.refreshToken].filter((s): s is string => s !== null));
