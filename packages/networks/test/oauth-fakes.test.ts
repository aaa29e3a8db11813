import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRedditUserAgent, linkedinAdapter } from "../src/index.ts";
import { LinkedInFake } from "../src/linkedin/fake/server.ts";
import { PinterestFake } from "../src/pinterest/fake/server.ts";
import { RedditFake } from "../src/reddit/fake/server.ts";

/*
 * The fakes' own checks, which the end-to-end tests rely on never firing: the Pinterest fake flags a
 * request that strays from pinterest-openapi.json, the LinkedIn fake refuses a retired API version
 * with 426 (which the adapter reports as refused, naming the version), and the Reddit fake throttles a
 * generic User-Agent but not the adapter's default one.
 */

let pinterest: PinterestFake;
let linkedin: LinkedInFake;
let reddit: RedditFake;

beforeAll(async () => {
  [pinterest, linkedin, reddit] = await Promise.all([
    PinterestFake.start(),
    LinkedInFake.start(),
    RedditFake.start(),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([pinterest?.close(), linkedin?.close(), reddit?.close()]);
});

describe("network fakes", () => {
  it("the Pinterest fake flags a pin that strays from pinterest-openapi.json", async () => {
    await fetch(`${pinterest.url}/v5/pins`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer nobody" },
      body: JSON.stringify({ board_id: "not-digits", title: "x".repeat(101) }),
    });
    expect(pinterest.specViolations.join("\n")).toMatch(/board_id.*pattern|title.*100/s);
  });

  it("a LinkedIn-Version LinkedIn no longer serves is refused, naming the version", async () => {
    const app = linkedin.addApp();
    const member = linkedin.addMember({ name: "Old Version" });
    linkedin.signIn(member);
    const adapter = linkedinAdapter({
      apiUrl: linkedin.url,
      authorizeUrl: linkedin.url,
      version: "202001",
      ...app,
    });
    const consent = await fetch(
      adapter.oauth!.authorizeUrl({ state: "s", redirectUri: "http://127.0.0.1/cb", codeChallenge: null }),
    );
    const request = /name="request" value="([^"]+)"/.exec(await consent.text())![1]!;
    const back = await fetch(`${linkedin.url}/oauth/v2/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ request, decision: "allow" }).toString(),
      redirect: "manual",
    });
    const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
    const signal = AbortSignal.timeout(10_000);
    const connected = await adapter.oauth!.exchange({
      code,
      redirectUri: "http://127.0.0.1/cb",
      codeVerifier: null,
      fields: {},
      signal,
    });
    const session = {
      handle: connected.handle,
      credentials: connected.credentials,
      saveCredentials: async () => {},
    };
    await expect(
      adapter.publish(session, {
        postId: "post_1",
        text: "hi",
        media: [],
        key: "k",
        step: null,
        saveStep: async () => {},
        signal,
      }),
    ).rejects.toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/no longer serves API version 202001/),
    });
  });

  it("the Reddit fake throttles a generic User-Agent, not the adapter's default one", async () => {
    const generic = await fetch(`${reddit.url}/api/v1/me`, { headers: { "user-agent": "node" } });
    expect(generic.status).toBe(429);
    const ours = await fetch(`${reddit.url}/api/v1/me`, {
      headers: { "user-agent": defaultRedditUserAgent("abc") },
    });
    expect(ours.status).toBe(401);
  });
});
