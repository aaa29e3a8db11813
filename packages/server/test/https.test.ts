import { writeFileSync } from "node:fs";
import { type ProvisionedUser, provisionUser } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { NodeAdapterName } from "../src/http/http-server.ts";
import { createLogger } from "../src/logging.ts";
import { type RunningServer, type StartServerOptions, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { runCli, type ServerProcess, startServerProcess, TEST_KEY } from "./support/cli-process.ts";
import { makeTestCertificate, type TestCertificate } from "./support/self-signed.ts";
import { tempDir } from "./support/temp-dir.ts";

let certificate: TestCertificate;
/** A client that trusts the test's certificate, as a client trusts a real CA. */
let trusting: Agent;
const dir = tempDir("socialpub-https-");

beforeAll(async () => {
  certificate = await makeTestCertificate();
  trusting = new Agent({ connect: { ca: certificate.cert } });
});
afterAll(async () => {
  await trusting.close();
  dir.remove();
});

const running: { server: RunningServer; store: SqliteStore }[] = [];
const processes: ServerProcess[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.store.close();
  }
  await Promise.all(processes.splice(0).map((p) => p.stop("SIGKILL")));
});

async function start(options: Partial<StartServerOptions> = {}) {
  const store = openSqliteStore(":memory:");
  const dev: ProvisionedUser = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const lines: string[] = [];
  const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
  const server = await startServer({ host: "127.0.0.1", port: 0, store, logger, ...options });
  running.push({ server, store });
  const warnings = () =>
    lines.map((line) => JSON.parse(line)).filter((line: { level: number }) => line.level === 40);
  return { server, dev, warnings };
}

describe("HTTPS", () => {
  for (const adapter of ["hono", "socialpub"] as NodeAdapterName[]) {
    it(`serves the API over TLS with the certificate and key it is given (${adapter} adapter)`, async () => {
      const { server, dev } = await start({ tls: certificate, adapter });
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const me = await undiciFetch(`${server.url}/api/v1/me`, {
        headers: { authorization: `Bearer ${dev.apiKey}` },
        dispatcher: trusting,
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { plan: string }).plan).toBe("studio");

      // The URLs the service builds from the request are https ones.
      const upload = await undiciFetch(`${server.url}/v1/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${dev.apiKey}`, "content-type": "image/png" },
        body: SAMPLE_PNG,
        dispatcher: trusting,
      });
      expect(upload.status).toBe(201);
      const media = (await upload.json()) as { url: string };
      expect(media.url.startsWith(`${server.url}/v1/media/`)).toBe(true);
      const bytes = await undiciFetch(media.url, { dispatcher: trusting });
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(SAMPLE_PNG);
    });
  }

  it("is real TLS: a client that does not trust the certificate, or speaks plain HTTP, is not served", async () => {
    const { server } = await start({ tls: certificate });
    const untrusting = new Agent();
    try {
      const refused = await undiciFetch(`${server.url}/healthz`, { dispatcher: untrusting }).catch(
        (error: Error & { cause?: { code?: string } }) => error.cause?.code,
      );
      expect(refused).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    } finally {
      await untrusting.close();
    }
    const plain = await fetch(`${server.url.replace("https:", "http:")}/healthz`).catch(() => "no answer");
    expect(plain).toBe("no answer");
  });
});

describe("the warning about plain HTTP beyond loopback", () => {
  it("is one line when the server listens on every interface without TLS or a proxy", async () => {
    const { warnings } = await start({ host: "0.0.0.0" });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0].msg).toMatch(
      /^listening on 0\.0\.0\.0 over plain HTTP: API keys would cross the network readable; serve HTTPS \(--tls-cert and --tls-key\) or put a TLS reverse proxy in front \(--trust-proxy\)/,
    );
  });

  it("is not written on loopback, with TLS, or behind a trusted proxy", async () => {
    expect((await start()).warnings()).toEqual([]);
    expect((await start({ host: "0.0.0.0", tls: certificate })).warnings()).toEqual([]);
    expect((await start({ host: "0.0.0.0", trustProxy: true })).warnings()).toEqual([]);
  });
});

describe("start --tls-cert --tls-key", () => {
  const certFile = () => {
    const path = dir.file("cert.pem");
    writeFileSync(path, certificate.cert);
    return path;
  };
  const keyFile = () => {
    const path = dir.file("key.pem");
    writeFileSync(path, certificate.key, { mode: 0o600 });
    return path;
  };

  it("serves HTTPS and says so where it prints where it listens", async () => {
    const server = await startServerProcess(
      ["--dev", "--dev-key", TEST_KEY, "--db", ":memory:", "--no-dashboard", "--log-format", "json"],
      { SOCIALPUB_TLS_CERT: certFile(), SOCIALPUB_TLS_KEY: keyFile() },
    );
    processes.push(server);
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.output()).toContain(`Base URL: ${server.url}/api/v1`);
    const me = await undiciFetch(`${server.url}/v1/me`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
      dispatcher: trusting,
    });
    expect(me.status).toBe(200);
  });

  it("refuses a certificate without its key, a missing file, and files that are not PEM, naming them", async () => {
    const onlyCert = await runCli(["start", "--db", ":memory:", "--port", "0", "--tls-cert", certFile()]);
    expect(onlyCert.code).toBe(1);
    expect(onlyCert.stderr).toContain(
      "HTTPS needs both a certificate and its private key: give --tls-cert and --tls-key (SOCIALPUB_TLS_CERT and SOCIALPUB_TLS_KEY); only --tls-cert was given.",
    );

    const missing = dir.file("nowhere.pem");
    const absent = await runCli([
      "start",
      "--db",
      ":memory:",
      "--port",
      "0",
      "--tls-cert",
      certFile(),
      "--tls-key",
      missing,
    ]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`cannot read --tls-key ${missing}: it does not exist.`);

    // The key given as the certificate and the other way round: neither file's content is quoted.
    const swapped = await runCli([
      "start",
      "--db",
      ":memory:",
      "--port",
      "0",
      "--tls-cert",
      keyFile(),
      "--tls-key",
      certFile(),
    ]);
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain(
      `cannot serve HTTPS with --tls-cert ${keyFile()} and --tls-key ${certFile()}:`,
    );
    expect(swapped.stderr).not.toContain("PRIVATE KEY");
    expect(swapped.stderr).not.toContain(certificate.key.split("\n")[1]);
  });
});

describe("start --trust-proxy and the warning", () => {
  const args = ["--dev", "--dev-key", TEST_KEY, "--db", ":memory:", "--no-dashboard", "--log-format", "json"];
  const warningOf = (output: string) =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .filter((line) => line.level === 40);

  it("on every interface over plain HTTP, start logs the warning once", async () => {
    const server = await startServerProcess([...args, "--host", "0.0.0.0"]);
    processes.push(server);
    await waitFor(() => server.output().includes('"msg":"listening"'));
    expect(warningOf(server.output())).toHaveLength(1);
    expect(warningOf(server.output())[0].msg).toMatch(/^listening on 0\.0\.0\.0 over plain HTTP/);
  });

  it("with SOCIALPUB_TRUST_PROXY=on, no warning, and media URLs carry the forwarded address", async () => {
    const server = await startServerProcess([...args, "--host", "0.0.0.0"], { SOCIALPUB_TRUST_PROXY: "on" });
    processes.push(server);
    await waitFor(() => server.output().includes('"msg":"listening"'));
    expect(warningOf(server.output())).toEqual([]);
    const upload = await fetch(`${server.url.replace("0.0.0.0", "127.0.0.1")}/v1/media`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        "content-type": "image/png",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "social.example.com",
      },
      body: SAMPLE_PNG,
    });
    expect(upload.status).toBe(201);
    expect(((await upload.json()) as { url: string }).url).toMatch(
      /^https:\/\/social\.example\.com\/v1\/media\//,
    );
  });
});

/** Waits until `check` holds, polling: log lines reach standard output at the end of a turn. */
async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the server's log line");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
