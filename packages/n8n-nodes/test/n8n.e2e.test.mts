// The package in a real n8n, headless: built with `n8n-node build`, loaded from n8n's custom
// extensions folder, driven through n8n's own CLI against the real reference server on port 0.
// CI installs n8n with the package's ci:prepare script; without it these tests fail in CI and are
// skipped elsewhere with the command to run.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INSTALL_COMMAND,
  isN8nInstalled,
  N8N_VERSION,
  n8nCacheDir,
} from "../scripts/n8n-install-location.mts";
import { N8n, parseRawOutput } from "./support/n8n-process.mts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.mts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const examplesDir = join(packageDir, "..", "..", "examples", "n8n");
const installed = isN8nInstalled();
const inCi = process.env.CI === "true";
const title = installed
  ? `in a real n8n ${N8N_VERSION}`
  : `in a real n8n ${N8N_VERSION} (skipped: not installed; run ${INSTALL_COMMAND})`;

const CREDENTIAL = { id: "spcredential00001", name: "Social Publish test" };
const credentialRef = { socialPublishApi: CREDENTIAL };

/** The package's own build, as its users run it (`n8n-node build`: tsc, then icons and codex files). */
function buildPackage(): void {
  const cli = join(packageDir, "node_modules", "@n8n", "node-cli", "bin", "n8n-node.mjs");
  execFileSync(process.execPath, [cli, "build"], { cwd: packageDir, stdio: "pipe" });
}

async function api(server: ReferenceServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.runIf(!installed && inCi)(`a real n8n ${N8N_VERSION} in CI`, () => {
  it("is installed by the package's ci:prepare script", () => {
    throw new Error(`n8n ${N8N_VERSION} is not installed in ${n8nCacheDir()}: run ${INSTALL_COMMAND}`);
  });
});

describe.skipIf(!installed)(title, () => {
  let server: ReferenceServer;
  let n8n: N8n;

  beforeAll(async () => {
    buildPackage();
    server = await startReferenceServer();
    n8n = await N8n.create(packageDir);
    const credentials = n8n.writeJson("credentials.json", [
      { ...CREDENTIAL, type: "socialPublishApi", data: { apiKey: server.apiKey, baseUrl: server.baseUrl } },
    ]);
    await n8n.mustRun(["import:credentials", `--input=${credentials}`]);
  }, 300_000);

  afterAll(async () => {
    await n8n?.dispose();
    await server?.stop();
  }, 60_000);

  it("runs manual trigger → Create Post → Get Post against the reference server", async () => {
    const workflow = n8n.writeJson("create-and-get.json", {
      id: "spwfcreateget0001",
      name: "Create and get a post",
      active: false,
      nodes: [
        {
          id: randomUUID(),
          name: "Start",
          type: "n8n-nodes-base.manualTrigger",
          typeVersion: 1,
          position: [0, 0],
          parameters: {},
        },
        {
          id: randomUUID(),
          name: "Create Post",
          type: "CUSTOM.socialPublish",
          typeVersion: 1,
          position: [220, 0],
          parameters: {
            resource: "post",
            operation: "create",
            caption: "Hello from a real n8n",
            networks: ["x", "linkedin"],
          },
          credentials: credentialRef,
        },
        {
          id: randomUUID(),
          name: "Get Post",
          type: "CUSTOM.socialPublish",
          typeVersion: 1,
          position: [440, 0],
          parameters: { resource: "post", operation: "get", postId: "={{ $json.id }}" },
          credentials: credentialRef,
        },
      ],
      connections: {
        Start: { main: [[{ node: "Create Post", type: "main", index: 0 }]] },
        "Create Post": { main: [[{ node: "Get Post", type: "main", index: 0 }]] },
      },
      settings: { executionOrder: "v1" },
    });
    await n8n.mustRun(["import:workflow", `--input=${workflow}`]);
    const { stdout } = await n8n.mustRun(["execute", "--id=spwfcreateget0001", "--rawOutput"]);

    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");
    const created = result.data.resultData.runData["Create Post"]?.[0]?.data?.main[0]?.[0]?.json;
    const fetched = result.data.resultData.runData["Get Post"]?.[0]?.data?.main[0]?.[0]?.json;
    expect(created).toMatchObject({
      caption: "Hello from a real n8n",
      platforms: ["x", "linkedin"],
      status: "published",
    });
    expect(fetched).toEqual(created);
    const onServer = await api(server, "GET", `/posts/${created?.id}`);
    expect(onServer).toEqual({ status: 200, body: created });
  }, 120_000);

  it("imports every example workflow", async () => {
    const files = readdirSync(examplesDir).filter((file) => file.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const { stdout } = await n8n.mustRun(["import:workflow", "--separate", `--input=${examplesDir}`]);
    expect(stdout).toContain(`Successfully imported ${files.length} workflows.`);
    const listed = await n8n.mustRun(["list:workflow"]);
    for (const file of files) {
      const { id, name } = JSON.parse(readFileSync(join(examplesDir, file), "utf8")) as {
        id: string;
        name: string;
      };
      expect(listed.stdout).toContain(`${id}|${name}`);
    }
  }, 120_000);

  it("starts a published workflow from a signed post.published event, and refuses a forged one", async () => {
    const received: Array<Record<string, unknown>> = [];
    const sink: Server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const sinkPort = (sink.address() as { port: number }).port;
    try {
      const webhookId = randomUUID();
      const workflow = n8n.writeJson("trigger.json", {
        id: "spwftrigger000001",
        name: "Forward published posts",
        active: false,
        nodes: [
          {
            id: randomUUID(),
            name: "Post published",
            type: "CUSTOM.socialPublishTrigger",
            typeVersion: 1,
            position: [0, 0],
            webhookId,
            parameters: { events: ["post.published"] },
            credentials: credentialRef,
          },
          {
            id: randomUUID(),
            name: "Forward event",
            type: "n8n-nodes-base.httpRequest",
            typeVersion: 4.2,
            position: [240, 0],
            parameters: {
              method: "POST",
              url: `http://127.0.0.1:${sinkPort}/received`,
              sendBody: true,
              specifyBody: "json",
              jsonBody: "={{ JSON.stringify($json) }}",
              options: {},
            },
          },
        ],
        connections: { "Post published": { main: [[{ node: "Forward event", type: "main", index: 0 }]] } },
        settings: { executionOrder: "v1" },
      });
      await n8n.mustRun(["import:workflow", `--input=${workflow}`]);
      await n8n.mustRun(["publish:workflow", "--id=spwftrigger000001"]);
      await n8n.start();

      const webhookUrl = `http://127.0.0.1:${n8n.port}/webhook/${webhookId}/webhook`;
      await waitFor("n8n to subscribe its webhook URL", async () => {
        const { body } = await api(server, "GET", "/webhooks");
        const endpoints = body.data as Array<{ url: string; events: string[] }>;
        return endpoints.find(
          (endpoint) => endpoint.url === webhookUrl && endpoint.events.join() === "post.published",
        );
      });

      const forged = JSON.stringify({
        id: "evt_forged",
        type: "post.published",
        created: Math.floor(Date.now() / 1000),
        data: { post_id: "post_forged" },
      });
      const forgedResponse = await fetch(webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": "evt_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")}`,
        },
        body: forged,
      });
      expect(forgedResponse.status).toBe(401);

      const created = await api(server, "POST", "/posts", { caption: "Watched by n8n", platforms: ["x"] });
      expect(created.status).toBe(201);
      const event = await waitFor("n8n to run the workflow with the event", async () =>
        received.find((item) => (item.data as { post_id?: string }).post_id === created.body.id),
      );
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        type: "post.published",
        created: expect.any(Number),
        data: { post_id: created.body.id, platform: "x", status: "published", permalink: expect.any(String) },
      });
      expect(received.some((item) => (item.data as { post_id?: string }).post_id === "post_forged")).toBe(
        false,
      );
    } finally {
      await n8n.stop();
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  }, 240_000);
});
