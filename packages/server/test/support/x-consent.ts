/**
 * What a person does with an X authorize URL: opens it, presses a button on the X fake's consent page
 * (the user the fake has signed in), and lets the browser follow X's redirect to the server's callback.
 * Answers the page the browser shows at the end.
 */
export async function grantOnXConsentPage(authorizeUrl: string, decision: "allow" | "deny" = "allow") {
  const consent = await fetch(authorizeUrl);
  const html = await consent.text();
  if (consent.status !== 200) throw new Error(`the consent page answered ${consent.status}: ${html}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const pressed = await fetch(new URL(action, authorizeUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request, decision }).toString(),
    redirect: "manual",
  });
  if (pressed.status !== 302) throw new Error(`the consent form answered ${pressed.status}, not a redirect`);
  const callback = pressed.headers.get("location")!;
  const page = await fetch(callback, { redirect: "manual" });
  return { callback, status: page.status, html: await page.text(), type: page.headers.get("content-type") };
}
