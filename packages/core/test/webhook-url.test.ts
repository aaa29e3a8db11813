import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/logger.ts";
import { checkWebhookUrl, isPublicAddress, type LookupHost } from "../src/net/public-url.ts";
import { createService } from "../src/service/create-service.ts";
import { HttpError } from "../src/service/http-error.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { provisionUser } from "../src/testing/index.ts";

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

  it("an IPv6 address that embeds an IPv4 address is judged by that IPv4 address", () => {
    const privateV4 = ["127.0.0.1", "10.0.0.1", "169.254.169.254", "192.168.0.1", "0.0.0.0"];
    for (const v4 of privateV4) {
      const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
      const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
      const inv = (x: number, y: number) => (((x ^ 0xff) << 8) | (y ^ 0xff)).toString(16);
      for (const form of [
        `::${v4}`, // IPv4-compatible; a URL parser writes it ::7f00:1
        `::${hex(a, b)}:${hex(c, d)}`,
        `::ffff:${v4}`, // mapped
        `::ffff:0:${v4}`, // translated
        `64:ff9b::${v4}`, // NAT64
        `64:ff9b:1::${v4}`, // NAT64, local use
        `2002:${hex(a, b)}:${hex(c, d)}::1`, // 6to4
        `2001:0:${hex(a, b)}:${hex(c, d)}::1`, // Teredo server
        `2001:0:808:808:0:0:${inv(a, b)}:${inv(c, d)}`, // Teredo client, stored inverted
        `2001:4860::5efe:${v4}`, // ISATAP
        `2001:4860::200:5efe:${v4}`,
      ]) {
        expect(isPublicAddress(form), form).toBe(false);
      }
    }
    // The same forms around a public address route to it.
    for (const form of [
      "::8.8.8.8",
      "::ffff:8.8.8.8",
      "64:ff9b::8.8.8.8",
      "2002:808:808::1",
      "2001:4860::5efe:8.8.8.8",
    ])
      expect(isPublicAddress(form), form).toBe(true);
    // An ISATAP interface id under a link-local prefix stays link-local.
    expect(isPublicAddress("fe80::5efe:8.8.8.8")).toBe(false);
  });

  it("refuses private address literals and localhost names", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://[::1]/hook",
      "http://localhost/hook",
      "http://api.localhost/x",
      "http://169.254.169.254/latest",
      "http://[::127.0.0.1]/hook",
      "http://[::10.0.0.1]/hook",
      "http://[::169.254.169.254]/latest",
      "http://[::ffff:0:127.0.0.1]/hook",
      "http://[64:ff9b::a9fe:a9fe]/latest",
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

describe("webhook URLs through the API", () => {
  it("POST /webhooks and PATCH /webhooks/{id} both refuse an IPv6 literal that embeds a private IPv4 address", async () => {
    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { plan: "creator", accounts: ["x"] });
    const service = createService({ store, logger: silentLogger, lookupHost: resolvesTo("93.184.215.14") });
    const call = (method: string, path: string, body: unknown) =>
      service.fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    for (const url of [
      "http://[::127.0.0.1]/hook",
      "http://[::10.0.0.1]/hook",
      "http://[::169.254.169.254]/x",
    ]) {
      const created = await call("POST", "/webhooks", { url, events: ["post.published"] });
      expect(created.status, url).toBe(400);
      expect((await created.json()).error).toMatch(/loopback, private or link-local address/);
    }
    const created = await call("POST", "/webhooks", {
      url: "https://hooks.example.com/a",
      events: ["post.published"],
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const patched = await call("PATCH", `/webhooks/${id}`, { url: "http://[::127.0.0.1]:8787/api/v1/me" });
    expect(patched.status).toBe(400);
    expect((await patched.json()).error).toMatch(/loopback, private or link-local address/);
  });
});
