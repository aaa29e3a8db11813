import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XFake } from "@socialpub/networks/x/fake";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";
import { FrontProxy } from "../../../server/test/support/front-proxy.ts";
import { keysCreateLive, type ReferenceServer, startReferenceServer } from "./reference-server.mts";

export interface LiveX {
  x: XFake;
  /** The X user the fake has signed in: the one who consents on its page. */
  username: string;
  /** The server, with `apiKey` the dev user's live key (sp_live_…) and X set up, nothing connected. */
  server: ReferenceServer;
  stop(): Promise<void>;
}

/**
 * The X fake and the reference server set up for X as docs/networks.md says: X's app settings, the
 * fake as X's API and authorize page, and SOCIALPUB_PUBLIC_URL (the address X sends browsers back to;
 * a proxy started first stands in front of the server, whose port is known only once it listens), a
 * secret key, and a live key made with `keys create --live`.
 */
export async function startLiveX(): Promise<LiveX> {
  const dir = mkdtempSync(join(tmpdir(), "socialpub-n8n-x-"));
  const db = join(dir, "live.db");
  const [x, front] = await Promise.all([XFake.start(), FrontProxy.start()]);
  const app = x.addApp();
  const username = "n8n_ships";
  x.signIn(x.addUser({ username, followers: 12 }));
  const env = {
    SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
    SOCIALPUB_PUBLIC_URL: front.url,
    SOCIALPUB_X_API_URL: x.url,
    SOCIALPUB_X_AUTH_URL: `${x.url}/i/oauth2/authorize`,
    SOCIALPUB_X_CLIENT_ID: app.clientId,
    SOCIALPUB_X_CLIENT_SECRET: app.clientSecret,
  };
  let server: ReferenceServer | undefined;
  const stop = async () => {
    await server?.stop();
    await Promise.all([x.close(), front.close()]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    server = await startReferenceServer({ db, env });
    front.target = new URL(new URL(server.baseUrl).origin);
    const printed = await withProcessSlot(() => keysCreateLive(db, env));
    const apiKey = /^API key: (sp_live_\S+)$/m.exec(printed)?.[1];
    if (!apiKey) throw new Error(`keys create --live printed no live key:\n${printed}`);
    return { x, username, server: { ...server, apiKey }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A person on X's consent page pressing "Authorize app": answers where X sends the browser back. */
export async function pressAuthorize(authorizeUrl: string): Promise<string> {
  const html = await (await fetch(authorizeUrl)).text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!request) throw new Error(`no consent form on X's page: ${html}`);
  const pressed = await fetch(new URL("/i/oauth2/consent", authorizeUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request, decision: "allow" }).toString(),
    redirect: "manual",
  });
  const location = pressed.headers.get("location");
  if (pressed.status !== 302 || !location) throw new Error(`X's consent answered ${pressed.status}`);
  return location;
}

/** The same, the browser then following X's redirect to the server's callback: the page it shows. */
export async function grantOnX(authorizeUrl: string): Promise<{ status: number; html: string }> {
  const back = await fetch(await pressAuthorize(authorizeUrl), { redirect: "manual" });
  return { status: back.status, html: await back.text() };
}
