import type { Credentials, NetworkAdapter } from "@socialpub/core";

/*
 * An OAuth network's connect as a person goes through it, against the network's fake: the authorize
 * URL opened, "allow" pressed on the fake's consent page, the code from the redirect traded with its
 * PKCE verifier. Answers the account's credentials.
 */

export const TEST_REDIRECT = (network: string) => `http://127.0.0.1:1/api/v1/accounts/callback/${network}`;

/** A PKCE pair: the verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = "v".repeat(50);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

/** Presses "allow" on the consent page `authorizeUrl` shows; answers the code the redirect carries. */
export async function pressAllow(authorizeUrl: string, consentUrl: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  const request = /name="request" value="([^"]+)"/.exec(await page.text())![1]!;
  const back = await fetch(consentUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request, decision: "allow" }).toString(),
    redirect: "manual",
  });
  return new URL(back.headers.get("location")!).searchParams.get("code")!;
}

/** Connects through the adapter's OAuth steps and the fake's consent page at `consentUrl`. */
export async function connectByConsent(adapter: NetworkAdapter, consentUrl: string): Promise<Credentials> {
  const oauth = adapter.oauth!;
  const { verifier, challenge } = await pkcePair();
  const redirectUri = TEST_REDIRECT(adapter.id);
  const code = await pressAllow(
    oauth.authorizeUrl({ state: "s", redirectUri, codeChallenge: challenge }),
    consentUrl,
  );
  const connected = await oauth.exchange({
    code,
    redirectUri,
    codeVerifier: verifier,
    fields: {},
    signal: AbortSignal.timeout(30_000),
  });
  return connected.credentials;
}
