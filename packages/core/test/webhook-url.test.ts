import { describe, expect, it } from "vitest";
import { HttpError } from "../src/service/http-error.ts";
import { checkWebhookUrl, isPublicAddress, type LookupHost } from "../src/service/webhook-url.ts";

const resolvesTo =
  (...addresses: string[]): LookupHost =>
  async () =>
    addresses;
const fails: LookupHost = async () => {
  throw new Error("ENOTFOUND");
};

async function refusal(url: string, lookup: LookupHost = resolvesTo("93.184.215.14")): Promise<string> {
  try {
    await checkWebhookUrl(url, false, lookup);
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return err.message;
    throw err;
  }
  throw new Error(`accepted ${url}`);
}

describe("webhook URLs", () => {
  it("public addresses are accepted; loopback, private, link-local and the like are not", () => {
    for (const ip of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "224.0.0.1",
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it("refuses private address literals and localhost names", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://[::1]/hook",
      "http://localhost/hook",
      "http://api.localhost/x",
      "http://169.254.169.254/latest",
    ]) {
      expect(await refusal(url), url).toMatch(/loopback, private or link-local address/);
    }
  });

  it("refuses a host name that resolves to a private address, even when only one of its addresses is", async () => {
    expect(await refusal("https://internal.example/hook", resolvesTo("10.0.0.5"))).toMatch(/private/);
    expect(await refusal("https://mixed.example/hook", resolvesTo("93.184.215.14", "127.0.0.1"))).toMatch(
      /private/,
    );
  });

  it("refuses a host name that does not resolve", async () => {
    expect(await refusal("https://nowhere.invalid/hook", fails)).toBe(
      "url's host nowhere.invalid does not resolve; give a URL that can be reached.",
    );
  });

  it("accepts a host name that resolves to public addresses", async () => {
    expect(await checkWebhookUrl("https://hooks.example.com/a?b=1", false, resolvesTo("93.184.215.14"))).toBe(
      "https://hooks.example.com/a?b=1",
    );
  });

  it("with private addresses allowed (local testing), localhost is accepted without a lookup", async () => {
    expect(await checkWebhookUrl("http://127.0.0.1:9000/hook", true, fails)).toBe(
      "http://127.0.0.1:9000/hook",
    );
    expect(await checkWebhookUrl("http://localhost:9000/hook", true, fails)).toBe(
      "http://localhost:9000/hook",
    );
  });
});
