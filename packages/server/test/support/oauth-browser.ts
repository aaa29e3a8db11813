import { expect } from "vitest";

/*
 * What a person does with an OAuth network's authorize URL, in code: opens it, presses a button on the
 * network's consent page (a network fake's), and lets the browser follow the network's redirect to the
 * server's callback. Answers the page the browser ends on.
 */

export interface CallbackPage {
  /** The callback address the network redirected to (with its code and state). */
  callback: string;
  status: number;
  html: string;
  type: string | null;
}

export async function grantInBrowser(
  authorizeUrl: string,
  decision: "allow" | "deny" = "allow",
): Promise<CallbackPage> {
  const consent = await fetch(authorizeUrl);
  const html = await consent.text();
  expect(consent.status, html).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const pressed = await fetch(new URL(action, authorizeUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request, decision }).toString(),
    redirect: "manual",
  });
  expect(pressed.status).toBe(302);
  const callback = pressed.headers.get("location")!;
  const page = await fetch(callback, { redirect: "manual" });
  return { callback, status: page.status, html: await page.text(), type: page.headers.get("content-type") };
}

/** Reads until `done` holds or `ms` pass (the last value read is answered either way). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
