// The README's n8n settings tried in a real n8n, headless: n8n's MCP Client node (the one that takes the
// same connection settings as the MCP Client Tool, without an AI Agent) calls our Streamable HTTP server
// with a Bearer Auth credential, run by n8n's own CLI against the reference server on port 0. The n8n
// used is the one the n8n nodes' end-to-end tests install (their ci:prepare script): without it these
// tests fail in CI and are skipped elsewhere with the command to run.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INSTALL_COMMAND,
  isN8nInstalled,
  N8N_VERSION,
  n8nCacheDir,
} from "../../n8n-nodes/scripts/n8n-install-location.mts";
import { N8n, parseRawOutput } from "../../n8n-nodes/test/support/n8n-process.mts";
import { type RunningHttpServer, startHttpServer } from "../src/index.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

const installed = isN8nInstalled();
const inCi = process.env.CI === "true";
const title = installed
  ? `n8n ${N8N_VERSION}'s MCP Client node with the README's settings`
  : `n8n ${N8N_VERSION}'s MCP Client node (skipped: n8n is not installed; run ${INSTALL_COMMAND})`;

const KEY_CREDENTIAL = { id: "spmcpbearerkey01", name: "socialpub MCP key" };
const REVOKED_CREDENTIAL = { id: "spmcpbearerold01", name: "socialpub MCP revoked key" };

async function api(server: ReferenceServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A workflow: a Manual Trigger, then MCP Client nodes one after the other, as the README sets them. */
function mcpClientChain(
  id: string,
  endpointUrl: string,
  credential: { id: string; name: string },
  calls: Array<{ name: string; tool: string; input: Record<string, unknown> }>,
) {
  const nodes: Array<Record<string, unknown>> = [
    {
      id: randomUUID(),
      name: "Start",
      type: "n8n-nodes-base.manualTrigger",
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    },
  ];
  const connections: Record<string, unknown> = {};
  let previous = "Start";
  calls.forEach((call, index) => {
    nodes.push({
      id: randomUUID(),
      name: call.name,
      type: "@n8n/n8n-nodes-langchain.mcpClient",
      typeVersion: 1.1,
      position: [220 * (index + 1), 0],
      parameters: {
        serverTransport: "httpStreamable",
        endpointUrl,
        authentication: "bearerAuth",
        tool: { __rl: true, mode: "id", value: call.tool },
        inputMode: "json",
        jsonInput: JSON.stringify(call.input),
        options: {},
      },
      credentials: { httpBearerAuth: credential },
    });
    connections[previous] = { main: [[{ node: call.name, type: "main", index: 0 }]] };
    previous = call.name;
  });
  return { id, name: id, active: false, nodes, connections, settings: { executionOrder: "v1" } };
}

/** The parsed JSON answer of a tool, as the MCP Client node outputs it (its text content, parsed). */
function toolAnswer(result: ReturnType<typeof parseRawOutput>, node: string): unknown {
  const json = result.data.resultData.runData[node]?.[0]?.data?.main[0]?.[0]?.json as
    | { content?: Array<{ type: string; text: unknown }> }
    | undefined;
  return json?.content?.find((item) => item.type === "text")?.text;
}

describe.runIf(!installed && inCi)(`a real n8n ${N8N_VERSION} in CI`, () => {
  it("is installed by the n8n nodes' ci:prepare script", () => {
    throw new Error(`n8n ${N8N_VERSION} is not installed in ${n8nCacheDir()}: run ${INSTALL_COMMAND}`);
  });
});

describe.skipIf(!installed)(title, () => {
  let server: ReferenceServer;
  let mcp: RunningHttpServer;
  let n8n: N8n;
  let key: string;
  let revokedKey: string;
  const logged: string[] = [];

  beforeAll(async () => {
    server = await startReferenceServer();
    mcp = await startHttpServer({ baseUrl: server.baseUrl, port: 0, log: (line) => logged.push(line) });
    // A key made for n8n, as the dashboard's Settings → API keys makes one, and one made then revoked.
    const made = await api(server, "POST", "/keys", { mode: "test", name: "n8n" });
    expect(made.status).toBe(201);
    key = made.body.key as string;
    const old = await api(server, "POST", "/keys", { mode: "test", name: "n8n, revoked" });
    expect(old.status).toBe(201);
    revokedKey = old.body.key as string;
    expect((await api(server, "DELETE", `/keys/${old.body.id as string}`)).status).toBe(200);
    expect(key).toMatch(/^sp_test_/);

    n8n = await N8n.create(null);
    const credentials = n8n.writeJson("credentials.json", [
      { ...KEY_CREDENTIAL, type: "httpBearerAuth", data: { token: key } },
      { ...REVOKED_CREDENTIAL, type: "httpBearerAuth", data: { token: revokedKey } },
    ]);
    await n8n.mustRun(["import:credentials", `--input=${credentials}`]);
    const folder = n8n.writeJson("workflows.json", [
      mcpClientChain("spmcpvalidate001", mcp.url, KEY_CREDENTIAL, [
        {
          name: "Validate",
          tool: "validate_post",
          input: {
            caption: "Checked from n8n",
            captions: { bluesky: "Checked from n8n, Bluesky" },
            platforms: ["x", "bluesky"],
          },
        },
        { name: "Accounts", tool: "list_accounts", input: {} },
      ]),
      mcpClientChain("spmcprevoked0001", mcp.url, REVOKED_CREDENTIAL, [
        { name: "Accounts", tool: "list_accounts", input: {} },
      ]),
    ]);
    await n8n.mustRun(["import:workflow", `--input=${folder}`]);
  }, 600_000);

  afterAll(async () => {
    await n8n?.dispose();
    await mcp?.close();
    for (const line of logged) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(revokedKey);
    }
    await server?.stop();
  }, 60_000);

  it("validate_post and list_accounts answer through the MCP Client node, Streamable HTTP and Bearer Auth", async () => {
    const { stdout, stderr } = await n8n.mustRun(["execute", "--id=spmcpvalidate001", "--rawOutput"]);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");

    const checked = toolAnswer(result, "Validate") as {
      valid: boolean;
      targets: Array<{ platform: string; parts: Array<{ text: string }> }>;
    };
    expect(checked.valid).toBe(true);
    expect(checked.targets.map((target) => [target.platform, target.parts[0]?.text])).toEqual([
      ["x", "Checked from n8n"],
      ["bluesky", "Checked from n8n, Bluesky"],
    ]);
    // Checked only: nothing was published or stored.
    const posts = (await api(server, "GET", "/posts?limit=100")).body.data as Array<{ caption: string }>;
    expect(posts.filter((post) => post.caption === "Checked from n8n")).toEqual([]);

    const accounts = toolAnswer(result, "Accounts") as { data: Array<{ platform: string; health: string }> };
    const listed = (await api(server, "GET", "/accounts")).body.data as Array<{ platform: string }>;
    expect(accounts.data.map((account) => account.platform)).toEqual(listed.map((a) => a.platform));
    expect(accounts.data.map((account) => account.platform)).toEqual(
      expect.arrayContaining(["x", "bluesky"]),
    );

    expect(stdout + stderr).not.toContain(key);
  }, 300_000);

  it("a revoked key fails the node with the service's message and which key to check, never the key", async () => {
    const { code, stdout, stderr } = await n8n.run(["execute", "--id=spmcprevoked0001", "--rawOutput"]);
    expect(code).not.toBe(0);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("error");
    const error = result.data.resultData.error as { message: string };
    expect(error.message).toContain("Invalid or revoked API key.");
    expect(error.message).toContain("Check the key your MCP client sends as Authorization: Bearer");
    expect(stdout + stderr).not.toContain(revokedKey);
    expect(stdout + stderr).not.toContain(key);
  }, 300_000);
});
