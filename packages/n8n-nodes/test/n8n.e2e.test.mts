// The package in a real n8n, headless: built with `n8n-node build`, packed as it is published and
// installed as a community package (nodes `n8n-nodes-socialpub.*`, as in the example workflows),
// driven through n8n's own CLI against the real reference server on port 0. CI installs n8n with the
// package's ci:prepare script; without it these tests fail in CI and are skipped elsewhere with the
// command to run.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INSTALL_COMMAND,
  isN8nInstalled,
  N8N_VERSION,
  n8nCacheDir,
} from "../scripts/n8n-install-location.mts";
import { installWithNpm, packPackage } from "./support/community-package.mts";
import { type FakeSlack, startFakeSlack } from "./support/fake-slack.mts";
import { startLiveBluesky } from "./support/live-bluesky.mts";
import { grantOnX, startLiveX } from "./support/live-x.mts";
import { N8n, parseRawOutput } from "./support/n8n-process.mts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.mts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const examplesDir = join(packageDir, "..", "..", "examples", "n8n");
const installed = isN8nInstalled();
const inCi = process.env.CI === "true";
const title = installed
  ? `in a real n8n ${N8N_VERSION}`
  : `in a real n8n ${N8N_VERSION} (skipped: not installed; run ${INSTALL_COMMAND})`;

// The credential the example workflows refer to, so they run as imported.
const CREDENTIAL = { id: "socialpub-credential", name: "Social Publish account" };
const credentialRef = { socialPublishApi: CREDENTIAL };
const SLACK_CREDENTIAL = { id: "slack-credential", name: "Slack account" };
const SLACK_TOKEN = "xoxb-socialpub-e2e";

interface WorkflowFile {
  id: string;
  name: string;
  nodes: Array<{
    name: string;
    type: string;
    webhookId?: string;
    parameters: Record<string, unknown>;
    credentials?: Record<string, unknown>;
  }>;
}

function readExample(file: string): WorkflowFile {
  return JSON.parse(readFileSync(join(examplesDir, file), "utf8")) as WorkflowFile;
}

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

interface ChainNode {
  name: string;
  parameters: Record<string, unknown>;
  /** n8n's "On Error" setting; continueRegularOutput is Continue On Fail. */
  onError?: string;
  /** Another node than Social Publish (no credential), e.g. n8n-nodes-base.httpRequest. */
  type?: string;
  typeVersion?: number;
}

/** A workflow file: a Manual Trigger, then Social Publish nodes one after the other. */
function socialPublishChain(id: string, name: string, chain: ChainNode[]) {
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
  chain.forEach((node, index) => {
    nodes.push({
      id: randomUUID(),
      name: node.name,
      type: node.type ?? "n8n-nodes-socialpub.socialPublish",
      typeVersion: node.typeVersion ?? 1,
      position: [220 * (index + 1), 0],
      parameters: node.parameters,
      ...(node.type === undefined && { credentials: credentialRef }),
      ...(node.onError && { onError: node.onError }),
    });
    connections[previous] = { main: [[{ node: node.name, type: "main", index: 0 }]] };
    previous = node.name;
  });
  return { id, name, active: false, nodes, connections, settings: { executionOrder: "v1" } };
}

/** Text per network on Create, and an Update of a scheduled post (see the test that runs it). */
const textPerNetworkWorkflow = socialPublishChain("spwftextpernet001", "Text per network, edited", [
  {
    name: "Schedule",
    parameters: {
      resource: "post",
      operation: "create",
      caption: "First text",
      networks: ["x", "linkedin", "bluesky"],
      publish: "schedule",
      scheduleAt: "={{ $now.plus({ seconds: 40 }).toISO() }}",
      captions: { text: [{ network: "bluesky", text: "First text for Bluesky" }] },
    },
  },
  {
    name: "Update",
    parameters: {
      resource: "post",
      operation: "update",
      postId: "={{ $json.id }}",
      updateFields: { caption: "Edited text" },
      captions: {
        text: [
          { network: "x", text: "Edited for X" },
          { network: "linkedin", text: "Edited for LinkedIn" },
        ],
      },
    },
  },
  {
    name: "Publish now",
    parameters: {
      resource: "post",
      operation: "create",
      caption: "Now, for the rest",
      networks: ["x", "linkedin"],
      captions: { text: [{ network: "x", text: "Now, for X" }] },
    },
  },
]);

/**
 * Three items (to X, to Instagram without media, to LinkedIn) into two Create nodes: one set to "On
 * Error → Continue (using error output)", its outputs feeding "Published" and "Failed", and one set to
 * "Continue (regular output)" feeding "After regular". Instagram refuses a post without media (400).
 */
function errorOutputsWorkflow() {
  const node = (name: string, type: string, x: number, y: number, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    name,
    type,
    typeVersion: 1,
    position: [x, y],
    parameters: {},
    ...extra,
  });
  const create = (name: string, onError: string, y: number, suffix: string) =>
    node(name, "n8n-nodes-socialpub.socialPublish", 660, y, {
      onError,
      credentials: credentialRef,
      parameters: {
        resource: "post",
        operation: "create",
        caption: `={{ $json.caption }}${suffix}`,
        networks: "={{ [$json.network] }}",
      },
    });
  const posts = [
    { caption: "Error output, to X", network: "x" },
    { caption: "Error output, to Instagram without media", network: "instagram" },
    { caption: "Error output, to LinkedIn", network: "linkedin" },
  ];
  const to = (...names: string[]) => names.map((name) => [{ node: name, type: "main", index: 0 }]);
  return {
    id: "spwferroroutput01",
    name: "Error outputs",
    active: false,
    nodes: [
      node("Start", "n8n-nodes-base.manualTrigger", 0, 0),
      node("Posts", "n8n-nodes-base.set", 220, 0, {
        typeVersion: 3.4,
        parameters: { mode: "raw", jsonOutput: JSON.stringify({ posts }), options: {} },
      }),
      node("Split", "n8n-nodes-base.splitOut", 440, 0, {
        parameters: { fieldToSplitOut: "posts", options: {} },
      }),
      create("Create, error output", "continueErrorOutput", -120, ""),
      create("Create, regular output", "continueRegularOutput", 120, " (regular)"),
      node("Published", "n8n-nodes-base.noOp", 880, -200),
      node("Failed", "n8n-nodes-base.noOp", 880, -40),
      node("After regular", "n8n-nodes-base.noOp", 880, 120),
    ],
    connections: {
      Start: { main: to("Posts") },
      Posts: { main: to("Split") },
      Split: {
        main: [
          [
            { node: "Create, error output", type: "main", index: 0 },
            { node: "Create, regular output", type: "main", index: 0 },
          ],
        ],
      },
      "Create, error output": { main: to("Published", "Failed") },
      "Create, regular output": { main: to("After regular") },
    },
    settings: { executionOrder: "v1" },
  };
}

/**
 * Two posts (to X, to Instagram without media) checked by Post → Validate set to "Continue (using error
 * output)": the valid one goes on to Create, the refused one to "Refused", and nothing is made for it.
 */
function validateThenCreateWorkflow() {
  const node = (name: string, type: string, x: number, y: number, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    name,
    type,
    typeVersion: 1,
    position: [x, y],
    parameters: {},
    ...extra,
  });
  const socialPublish = (name: string, x: number, parameters: Record<string, unknown>, extra = {}) =>
    node(name, "n8n-nodes-socialpub.socialPublish", x, 0, {
      credentials: credentialRef,
      parameters,
      ...extra,
    });
  const posts = [
    { caption: "Validated, then published. ".repeat(12).trim(), network: "x" },
    { caption: "Validated, to Instagram without media", network: "instagram" },
  ];
  const to = (...names: string[]) => names.map((name) => [{ node: name, type: "main", index: 0 }]);
  return {
    id: "spwfvalidate00001",
    name: "Validate, then create",
    active: false,
    nodes: [
      node("Start", "n8n-nodes-base.manualTrigger", 0, 0),
      node("Posts", "n8n-nodes-base.set", 220, 0, {
        typeVersion: 3.4,
        parameters: { mode: "raw", jsonOutput: JSON.stringify({ posts }), options: {} },
      }),
      node("Split", "n8n-nodes-base.splitOut", 440, 0, {
        parameters: { fieldToSplitOut: "posts", options: {} },
      }),
      socialPublish(
        "Validate",
        660,
        {
          resource: "post",
          operation: "validate",
          caption: "={{ $json.caption }}",
          networks: "={{ [$json.network] }}",
        },
        { onError: "continueErrorOutput" },
      ),
      socialPublish("Create", 880, {
        resource: "post",
        operation: "create",
        caption: "={{ $('Split').item.json.caption }}",
        networks: "={{ [$('Split').item.json.network] }}",
      }),
      node("Refused", "n8n-nodes-base.noOp", 880, 200),
    ],
    connections: {
      Start: { main: to("Posts") },
      Posts: { main: to("Split") },
      Split: { main: to("Validate") },
      Validate: { main: to("Create", "Refused") },
    },
    settings: { executionOrder: "v1" },
  };
}

/**
 * A post to X and LinkedIn that X refuses (its sandbox account set to need reauthorizing first), X
 * reconnected by a request to the sandbox, then Post → Retry twice: the first sends X again, the
 * second (Continue On Fail) meets the service's 409, no network having failed.
 */
function retryWorkflow(server: ReferenceServer) {
  const postId = "={{ $('Create').item.json.id }}";
  return socialPublishChain("spwfretryfailed01", "Retry the networks that failed", [
    {
      name: "Create",
      parameters: {
        resource: "post",
        operation: "create",
        caption: "Retried on X",
        networks: ["x", "linkedin"],
      },
    },
    {
      name: "Reconnect X",
      type: "n8n-nodes-base.httpRequest",
      typeVersion: 4.2,
      parameters: {
        method: "POST",
        url: `${server.baseUrl}/sandbox/accounts/x`,
        sendHeaders: true,
        headerParameters: { parameters: [{ name: "Authorization", value: `Bearer ${server.apiKey}` }] },
        sendBody: true,
        specifyBody: "json",
        jsonBody: JSON.stringify({ health: "healthy" }),
        options: {},
      },
    },
    { name: "Retry", parameters: { resource: "post", operation: "retry", postId } },
    {
      name: "Retry again",
      onError: "continueRegularOutput",
      parameters: { resource: "post", operation: "retry", postId },
    },
  ]);
}

/** A rich post: two images with alt text, a second part and a first comment, then its targets read. */
const RICH = {
  caption: "Rich post from n8n: release 2.0",
  part: "Part two: what changed",
  comment: "Notes: https://example.com/releases/2.0",
  images: [
    { url: "https://example.com/rich-one.png", alt: "The new dashboard" },
    { url: "https://example.com/rich-two.png", alt: "A chart of publish times" },
  ],
};
const richPostWorkflow = socialPublishChain("spwfrichpost00001", "Rich post", [
  {
    name: "Create",
    parameters: {
      resource: "post",
      operation: "create",
      caption: RICH.caption,
      networks: ["x", "linkedin"],
      mediaSource: "list",
      mediaItems: { item: RICH.images.map((image) => ({ source: "url", ...image })) },
      thread: { part: [{ caption: RICH.part }] },
      firstComment: RICH.comment,
    },
  },
  {
    name: "Get Targets",
    parameters: { resource: "post", operation: "getTargets", postId: "={{ $json.id }}" },
  },
]);

describe.runIf(!installed && inCi)(`a real n8n ${N8N_VERSION} in CI`, () => {
  it("is installed by the package's ci:prepare script", () => {
    throw new Error(`n8n ${N8N_VERSION} is not installed in ${n8nCacheDir()}: run ${INSTALL_COMMAND}`);
  });
});

describe.skipIf(!installed)(title, () => {
  let scratch: string;
  let server: ReferenceServer;
  let slack: FakeSlack;
  let n8n: N8n;
  let tarball: string;

  beforeAll(async () => {
    buildPackage();
    scratch = mkdtempSync(join(tmpdir(), "socialpub-n8n-e2e-"));
    tarball = packPackage(packageDir, scratch);
    server = await startReferenceServer();
    slack = await startFakeSlack(scratch);
    n8n = await N8n.create(tarball, slack.env);
    const credentials = n8n.writeJson("credentials.json", [
      { ...CREDENTIAL, type: "socialPublishApi", data: { apiKey: server.apiKey, baseUrl: server.baseUrl } },
      { ...SLACK_CREDENTIAL, type: "slackApi", data: { accessToken: SLACK_TOKEN } },
    ]);
    await n8n.mustRun(["import:credentials", `--input=${credentials}`]);
  }, 600_000);

  afterAll(async () => {
    await n8n?.dispose();
    await slack?.close();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  /**
   * The workflows of the publishing cases below, imported in one command the first time one of them
   * asks (each n8n command boots the app, which takes long on a busy machine).
   */
  let publishingWorkflows: Promise<unknown> | undefined;
  function importPublishingWorkflows(): Promise<unknown> {
    publishingWorkflows ??= importWorkflows();
    return publishingWorkflows;
  }
  function importWorkflows() {
    const folder = join(n8n.root, "publishing-workflows");
    mkdirSync(folder, { recursive: true });
    const workflows = [
      textPerNetworkWorkflow,
      socialPublishChain("spwfnowhere000001", "Published nowhere", [
        {
          name: "Create, continue",
          onError: "continueRegularOutput",
          parameters: {
            resource: "post",
            operation: "create",
            caption: "Nowhere, kept",
            networks: ["bluesky"],
          },
        },
        {
          name: "Create",
          parameters: { resource: "post", operation: "create", caption: "Nowhere", networks: ["bluesky"] },
        },
      ]),
      errorOutputsWorkflow(),
      validateThenCreateWorkflow(),
      richPostWorkflow,
      retryWorkflow(server),
      socialPublishChain("spwfretryfix00001", "Retry after a fix", [
        {
          name: "Create Post",
          parameters: {
            resource: "post",
            operation: "create",
            caption: "Retried after the fix",
            networks: ["reddit"],
          },
        },
      ]),
    ];
    for (const workflow of workflows)
      writeFileSync(join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
    return n8n.mustRun(["import:workflow", "--separate", `--input=${folder}`]);
  }

  it("has the package installed where n8n keeps community packages, and nothing in custom folders", () => {
    const installedDir = join(n8n.n8nFolder, "nodes", "node_modules", "n8n-nodes-socialpub");
    const manifest = JSON.parse(readFileSync(join(installedDir, "package.json"), "utf8")) as {
      n8n: { nodes: string[]; credentials: string[] };
    };
    for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
      expect(existsSync(join(installedDir, file)), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(n8n.n8nFolder, "nodes", "package.json"), "utf8"))).toMatchObject({
      dependencies: { "n8n-nodes-socialpub": expect.any(String) },
    });
    expect(existsSync(join(n8n.n8nFolder, "custom"))).toBe(false);
  });

  it("loads the package installed as its README says: npm install --legacy-peer-deps <tarball> in an empty ~/.n8n/nodes", async () => {
    const viaNpm = await N8n.create(tarball, {}, installWithNpm);
    try {
      // Only the package: npm installed neither n8n-workflow nor anything it would pull in (isolated-vm).
      const nodesDir = join(viaNpm.n8nFolder, "nodes");
      expect(readdirSync(join(nodesDir, "node_modules")).filter((name) => !name.startsWith("."))).toEqual([
        "n8n-nodes-socialpub",
      ]);
      const credentials = viaNpm.writeJson("credentials.json", [
        { ...CREDENTIAL, type: "socialPublishApi", data: { apiKey: server.apiKey, baseUrl: server.baseUrl } },
      ]);
      await viaNpm.mustRun(["import:credentials", `--input=${credentials}`]);
      const workflow = socialPublishChain("spwfnpminstall001", "Installed with npm", [
        {
          name: "Create Post",
          parameters: {
            resource: "post",
            operation: "create",
            caption: "Installed with npm",
            networks: ["x"],
          },
        },
      ]);
      await viaNpm.mustRun(["import:workflow", `--input=${viaNpm.writeJson("npm-install.json", workflow)}`]);
      const { stdout } = await viaNpm.mustRun(["execute", "--id=spwfnpminstall001", "--rawOutput"]);
      const result = parseRawOutput(stdout);
      expect(result.status).toBe("success");
      expect(result.data.resultData.runData["Create Post"]?.[0]?.data?.main[0]?.[0]?.json).toMatchObject({
        caption: "Installed with npm",
        status: "published",
      });
    } finally {
      await viaNpm.dispose();
    }
  }, 480_000);

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
          type: "n8n-nodes-socialpub.socialPublish",
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
          type: "n8n-nodes-socialpub.socialPublish",
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
      failures: [],
    });
    const { failures: _, ...post } = created ?? {};
    expect(fetched).toEqual(post);
    const onServer = await api(server, "GET", `/posts/${created?.id}`);
    expect(onServer).toEqual({ status: 200, body: post });
  }, 300_000);

  it("publishes to Bluesky with a live key: Create Post → Get Targets gives the real permalink, and the record is on the PDS", async () => {
    const live = await startLiveBluesky();
    try {
      const liveCredential = { id: "socialpub-live-credential", name: "Social Publish live" };
      const credentials = n8n.writeJson("live-credentials.json", [
        {
          ...liveCredential,
          type: "socialPublishApi",
          data: { apiKey: live.server.apiKey, baseUrl: live.server.baseUrl },
        },
      ]);
      await n8n.mustRun(["import:credentials", `--input=${credentials}`]);
      const workflow = socialPublishChain("spwflivebluesky01", "Live to Bluesky", [
        {
          name: "Create Post",
          parameters: {
            resource: "post",
            operation: "create",
            caption: "Live from n8n",
            networks: ["bluesky"],
          },
        },
        {
          name: "Get Targets",
          parameters: { resource: "post", operation: "getTargets", postId: "={{ $json.id }}" },
        },
      ]);
      for (const node of workflow.nodes)
        if (node.credentials) node.credentials = { socialPublishApi: liveCredential };
      await n8n.mustRun(["import:workflow", `--input=${n8n.writeJson("live-bluesky.json", workflow)}`]);
      const { stdout } = await n8n.mustRun(["execute", "--id=spwflivebluesky01", "--rawOutput"]);

      const result = parseRawOutput(stdout);
      expect(result.status).toBe("success");
      const output = (node: string) => result.data.resultData.runData[node]?.[0]?.data?.main[0] ?? [];
      expect(output("Create Post")[0]?.json).toMatchObject({
        caption: "Live from n8n",
        platforms: ["bluesky"],
        status: "published",
        failures: [],
      });
      const targets = output("Get Targets").map((item) => item.json);
      expect(targets).toEqual([
        expect.objectContaining({
          platform: "bluesky",
          status: "published",
          permalink: expect.stringMatching(
            new RegExp(
              `^https://bsky\\.app/profile/${live.account.handle.replaceAll(".", "\\.")}/post/[a-z2-7]{13}$`,
            ),
          ),
        }),
      ]);
      // The record is on the PDS, under the key the permalink names.
      const owner = await live.peer.ownerAgent(live.account);
      const record = await owner.com.atproto.repo.getRecord({
        repo: live.account.did,
        collection: "app.bsky.feed.post",
        rkey: String(targets[0]?.permalink).split("/").pop()!,
      });
      expect((record.data.value as { text: string }).text).toBe("Live from n8n");
    } finally {
      await live.stop();
    }
  }, 480_000);

  it("connects X with a live key: Account → Connect outputs the authorize URL, and granting access there connects the account", async () => {
    const live = await startLiveX();
    try {
      const xCredential = { id: "socialpub-x-credential", name: "Social Publish live (X)" };
      const credentials = n8n.writeJson("x-credentials.json", [
        {
          ...xCredential,
          type: "socialPublishApi",
          data: { apiKey: live.server.apiKey, baseUrl: live.server.baseUrl },
        },
      ]);
      await n8n.mustRun(["import:credentials", `--input=${credentials}`]);
      const workflow = socialPublishChain("spwfconnectx00001", "Connect X", [
        { name: "Connect", parameters: { resource: "account", operation: "connect", platform: "x" } },
      ]);
      for (const node of workflow.nodes)
        if (node.credentials) node.credentials = { socialPublishApi: xCredential };
      await n8n.mustRun(["import:workflow", `--input=${n8n.writeJson("connect-x.json", workflow)}`]);
      const { stdout } = await n8n.mustRun(["execute", "--id=spwfconnectx00001", "--rawOutput"]);

      const result = parseRawOutput(stdout);
      expect(result.status).toBe("success");
      const [item] = result.data.resultData.runData.Connect?.[0]?.data?.main[0] ?? [];
      const started = item?.json as {
        platform: string;
        authorize_url: string;
        state: string;
        expires_at: string;
      };
      expect(Object.keys(started).sort()).toEqual(["authorize_url", "expires_at", "platform", "state"]);
      expect(started.platform).toBe("x");
      expect(new URL(started.authorize_url).searchParams.get("state")).toBe(started.state);
      expect(Date.parse(started.expires_at)).toBeGreaterThan(Date.now());

      const page = await grantOnX(started.authorize_url);
      expect(page.status, page.html).toBe(200);
      expect(page.html).toContain(`@${live.username} is connected`);
      const accounts = await fetch(`${live.server.baseUrl}/accounts`, {
        headers: { authorization: `Bearer ${live.server.apiKey}` },
      });
      expect(((await accounts.json()) as { data: unknown[] }).data).toEqual([
        { platform: "x", handle: `@${live.username}`, followers: 12, health: "healthy" },
      ]);
    } finally {
      await live.stop();
    }
  }, 480_000);

  it("gives each network its own text, and an Update of a scheduled post publishes the new text at its time", async () => {
    await importPublishingWorkflows();
    const { stdout } = await n8n.mustRun(["execute", "--id=spwftextpernet001", "--rawOutput"]);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");
    const output = (node: string) => result.data.resultData.runData[node]?.[0]?.data?.main[0]?.[0]?.json;
    const scheduled = output("Schedule");
    expect(output("Update")).toMatchObject({
      id: scheduled?.id,
      caption: "Edited text",
      status: "scheduled",
      scheduled_at: scheduled?.scheduled_at,
    });
    expect(output("Publish now")).toMatchObject({ status: "published", failures: [] });

    const texts = async (postId: unknown) =>
      Object.fromEntries(
        (
          (await api(server, "GET", `/posts/${postId}/targets`)).body.data as Array<{
            platform: string;
            text: string;
          }>
        ).map((target) => [target.platform, target.text]),
      );
    expect(await texts(output("Publish now")?.id)).toEqual({
      x: "Now, for X",
      linkedin: "Now, for the rest",
    });

    const published = await waitFor(
      "the edited post to publish at its time",
      async () => {
        const { body } = await api(server, "GET", `/posts/${scheduled?.id}`);
        return body.status === "published" ? body : undefined;
      },
      120_000,
    );
    expect(published).toMatchObject({ caption: "Edited text", scheduled_at: scheduled?.scheduled_at });
    // The update replaced the overrides: Bluesky's is gone, so it gets the edited caption.
    expect(await texts(scheduled?.id)).toEqual({
      x: "Edited for X",
      linkedin: "Edited for LinkedIn",
      bluesky: "Edited text",
    });
  }, 300_000);

  it("On Error: a failed item goes to the error output with its details and pairing, or down the regular output, as set", async () => {
    await importPublishingWorkflows();
    const { stdout } = await n8n.mustRun(["execute", "--id=spwferroroutput01", "--rawOutput"]);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");
    type Item = { json: Record<string, unknown>; pairedItem?: unknown };
    const outputs = (node: string) =>
      (result.data.resultData.runData[node]?.[0]?.data?.main ?? []) as Array<Item[] | null>;
    const refusal = {
      error: expect.stringMatching(/^instagram needs media: /),
      http_status: 400,
      request_id: expect.any(String),
      description: expect.stringContaining("Request id: "),
    };
    const { error: _, ...details } = refusal;

    // Continue (using error output): the two posts published on the first output, the refused one on
    // the second, each paired with its input item; the error item keeps the input's fields too.
    const [published, failed] = outputs("Create, error output");
    expect(published?.map((item) => [item.json.caption, item.json.status, item.pairedItem])).toEqual([
      ["Error output, to X", "published", { item: 0 }],
      ["Error output, to LinkedIn", "published", { item: 2 }],
    ]);
    expect(failed).toHaveLength(1);
    expect(failed?.[0]?.json).toEqual({
      caption: "Error output, to Instagram without media",
      network: "instagram",
      error: refusal.error,
      details,
    });
    expect(failed?.[0]?.pairedItem).toEqual({ item: 1 });
    expect(outputs("Published")[0]).toHaveLength(2);
    expect(outputs("Failed")[0]?.map((item) => item.json)).toEqual([failed?.[0]?.json]);

    // Continue (regular output): every item on the one output, the refused one as an error item.
    const regular = outputs("Create, regular output");
    expect(regular).toHaveLength(1);
    expect(regular[0]?.map((item) => [item.json.status ?? item.json.error, item.pairedItem])).toEqual([
      ["published", { item: 0 }],
      [expect.stringMatching(/^instagram needs media: /), { item: 1 }],
      ["published", { item: 2 }],
    ]);
    expect(regular[0]?.[1]?.json).toEqual(refusal);
    expect(outputs("After regular")[0]).toHaveLength(3);
  }, 300_000);

  it("Post → Validate: the valid post goes on to Create, the refused one to the error output, and nothing is made for it", async () => {
    await importPublishingWorkflows();
    const { stdout } = await n8n.mustRun(["execute", "--id=spwfvalidate00001", "--rawOutput"]);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");
    type Item = { json: Record<string, unknown>; pairedItem?: unknown };
    const outputs = (node: string) =>
      (result.data.resultData.runData[node]?.[0]?.data?.main ?? []) as Array<Item[] | null>;
    const [valid, refused] = outputs("Validate");
    expect(valid).toEqual([
      {
        json: {
          valid: true,
          targets: [
            {
              platform: "x",
              parts: [{ text: expect.stringMatching(/^Validated, then published\. .*…$/), media: [] }],
              first_comment: null,
              notes: [expect.stringMatching(/^text shortened from \d+ to \d+ characters/)],
            },
          ],
        },
        pairedItem: { item: 0 },
      },
    ]);
    expect(refused).toHaveLength(1);
    expect(refused?.[0]?.json).toMatchObject({
      caption: "Validated, to Instagram without media",
      network: "instagram",
      error: expect.stringMatching(/^instagram needs media: /),
      details: { http_status: 400, request_id: expect.any(String) },
    });
    expect(refused?.[0]?.pairedItem).toEqual({ item: 1 });

    const [created] = outputs("Create")[0] ?? [];
    expect(created?.json).toMatchObject({ platforms: ["x"], status: "published", failures: [] });
    // X publishes the text Validate showed.
    const targets = (await api(server, "GET", `/posts/${created?.json.id}/targets`)).body.data as Array<{
      text: string;
    }>;
    expect(targets.map((target) => target.text)).toEqual([
      (valid?.[0]?.json.targets as Array<{ parts: Array<{ text: string }> }> | undefined)?.[0]?.parts[0]
        ?.text,
    ]);
    const posts = (await api(server, "GET", "/posts?limit=100")).body.data as Array<{ caption: string }>;
    expect(posts.filter((post) => post.caption.startsWith("Validated"))).toHaveLength(1);
  }, 300_000);

  it("Post → Create a rich post: two images with alt text, a 2-part thread and a first comment; Get Targets shows each network's parts and comment", async () => {
    await importPublishingWorkflows();
    const { stdout } = await n8n.mustRun(["execute", "--id=spwfrichpost00001", "--rawOutput"]);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("success");
    const items = (node: string) =>
      (result.data.resultData.runData[node]?.[0]?.data?.main[0] ?? []).map((item) => item.json);
    const [created] = items("Create");
    expect(created).toMatchObject({ platforms: ["x", "linkedin"], status: "published", failures: [] });

    // The whole post as the node sent it.
    const content = await api(server, "GET", `/posts/${created?.id}/content`);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({
      caption: RICH.caption,
      media: RICH.images.map((image) => ({ url: image.url, alt: image.alt })),
      thread: [{ caption: RICH.part, media: [] }],
      first_comment: RICH.comment,
    });

    // X threads: two replies in order, each with its permalink; LinkedIn joins the parts' text.
    const targets = Object.fromEntries(items("Get Targets").map((target) => [target.platform, target]));
    const published = (text: string) => ({ text, status: "published", permalink: expect.any(String) });
    const commented = { status: "published", permalink: expect.any(String), error: null };
    expect(targets.x).toMatchObject({
      status: "published",
      parts: [published(RICH.caption), published(RICH.part)],
      first_comment: commented,
      media: RICH.images.map((image) => expect.objectContaining({ alt: image.alt })),
    });
    const xParts = (targets.x?.parts ?? []) as Array<{ permalink: string }>;
    expect(new Set(xParts.map((part) => part.permalink)).size).toBe(2);
    expect(targets.linkedin).toMatchObject({
      status: "published",
      parts: [published(`${RICH.caption}\n\n${RICH.part}`)],
      first_comment: commented,
    });
  }, 300_000);

  it("Post → Retry sends the network that failed again once it is fixed, and a second retry meets the service's 409", async () => {
    await importPublishingWorkflows();
    try {
      expect((await api(server, "POST", "/sandbox/accounts/x", { health: "reauth_required" })).status).toBe(
        200,
      );
      const { stdout } = await n8n.mustRun(["execute", "--id=spwfretryfailed01", "--rawOutput"]);
      const result = parseRawOutput(stdout);
      expect(result.status).toBe("success");
      const output = (node: string) => result.data.resultData.runData[node]?.[0]?.data?.main[0]?.[0]?.json;
      const created = output("Create");
      expect(created).toMatchObject({ status: "published", failures: [{ platform: "x" }] });
      expect(output("Retry")).toMatchObject({
        id: created?.id,
        status: "published",
        platforms: ["x", "linkedin"],
        failures: [],
      });
      expect(output("Retry again")).toMatchObject({
        error: expect.stringMatching(/^No network has failed for this post/),
        http_status: 409,
        request_id: expect.any(String),
      });
      const targets = (await api(server, "GET", `/posts/${created?.id}/targets`)).body.data as Array<{
        platform: string;
        status: string;
      }>;
      expect(targets.map((target) => [target.platform, target.status])).toEqual([
        ["x", "published"],
        ["linkedin", "published"],
      ]);
    } finally {
      await api(server, "POST", "/sandbox/accounts/x", { health: "healthy" });
    }
  }, 300_000);

  it("fails a Create that published on no network with each network's reason; Continue On Fail keeps the post id and reasons", async () => {
    await importPublishingWorkflows();
    const refused = await api(server, "POST", "/sandbox/accounts/bluesky", { health: "reauth_required" });
    expect(refused.status).toBe(200);
    const { code, stdout } = await n8n.run(["execute", "--id=spwfnowhere000001", "--rawOutput"]);
    expect(code).not.toBe(0);
    const result = parseRawOutput(stdout);
    expect(result.status).toBe("error");
    const kept = result.data.resultData.runData["Create, continue"]?.[0]?.data?.main[0]?.[0]?.json;
    expect(kept).toMatchObject({
      error: expect.stringMatching(/^Post post_\S+ published on no network$/),
      post_id: expect.stringMatching(/^post_/),
      request_id: expect.any(String),
      failures: [{ platform: "bluesky", error: expect.stringMatching(/\S/) }],
    });
    const error = result.data.resultData.error as { message: string; description: string };
    expect(error.message).toMatch(/^Post post_\S+ published on no network$/);
    const reason = (kept?.failures as Array<{ error: string }> | undefined)?.[0]?.error;
    expect(reason).toEqual(expect.any(String));
    expect(error.description).toContain(`bluesky: ${reason}`);
    // Both posts are kept as drafts, to be published once the account is fixed.
    const drafts = (await api(server, "GET", "/posts?status=draft")).body.data as Array<{ caption: string }>;
    expect(drafts.map((post) => post.caption).sort()).toEqual(["Nowhere", "Nowhere, kept"]);
  }, 300_000);

  it("Executions → Retry after the cause is fixed publishes the post, once, however often it is retried", async () => {
    await importPublishingWorkflows();
    try {
      const failed = await n8n.run(["execute", "--id=spwfretryfix00001", "--rawOutput"]);
      expect(failed.code).not.toBe(0);
      expect((parseRawOutput(failed.stdout).data.resultData.error as { message: string }).message).toBe(
        "Select at least one connected network.",
      );
      // The fixes: Reddit connected, Bluesky authorized again.
      expect((await api(server, "POST", "/accounts/connect", { platform: "reddit" })).status).toBe(201);
      expect((await api(server, "POST", "/sandbox/accounts/bluesky", { health: "healthy" })).status).toBe(
        200,
      );

      await n8n.start();
      const rest = await n8n.signInOwner();
      const failedExecution = async (workflowId: string) => {
        const filter = encodeURIComponent(JSON.stringify({ workflowId }));
        const listed = await rest("GET", `/rest/executions?filter=${filter}`);
        const executions = (listed.body.data as { results: Array<{ id: string; status: string }> }).results;
        expect(executions.map((execution) => execution.status)).toEqual(["error"]);
        return executions[0]!.id;
      };
      const retry = async (executionId: string) => {
        const retried = await rest("POST", `/rest/executions/${executionId}/retry`, { loadWorkflow: false });
        expect(retried.status).toBe(200);
        return (retried.body.data as { status: string }).status;
      };
      const posts = async (caption: string) =>
        ((await api(server, "GET", "/posts?limit=100")).body.data as Array<{ caption: string }>).filter(
          (post) => post.caption === caption,
        );

      // Refused (400) the first time: the service kept no answer, so the same key now makes the post.
      const unconnected = await failedExecution("spwfretryfix00001");
      expect([await retry(unconnected), await retry(unconnected)]).toEqual(["success", "success"]);
      const made = await posts("Retried after the fix");
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ status: "published", platforms: ["reddit"] });

      // Published nowhere the first time: the retry meets its draft again and publishes it.
      const nowhere = await failedExecution("spwfnowhere000001");
      expect([await retry(nowhere), await retry(nowhere)]).toEqual(["success", "success"]);
      const republished = await posts("Nowhere");
      expect(republished).toHaveLength(1);
      expect(republished[0]).toMatchObject({ status: "published", platforms: ["bluesky"] });
    } finally {
      await n8n.stop();
      await api(server, "POST", "/sandbox/accounts/bluesky", { health: "healthy" });
    }
  }, 600_000);

  it("tests the credential as n8n's credential dialog does: GET /me passes; a wrong key and a Base URL without /api/v1 say what to fix", async () => {
    await n8n.start();
    try {
      const rest = await n8n.signInOwner();
      const test = (apiKey: string, baseUrl = server.baseUrl) =>
        rest("POST", "/rest/credentials/test", {
          credentials: { ...CREDENTIAL, type: "socialPublishApi", data: { apiKey, baseUrl } },
        });
      const usage = async () =>
        ((await api(server, "GET", "/me")).body.usage as { api_calls_this_month: number })
          .api_calls_this_month;

      const before = await usage();
      expect(await test(server.apiKey)).toEqual({
        status: 200,
        body: { data: { status: "OK", message: "Connection successful!" } },
      });
      // The test request itself reached the service (our own GET /me calls count too).
      expect(await usage()).toBe(before + 2);

      expect(await test("sp_test_notAKeyTheServiceKnows000000000000")).toEqual({
        status: 200,
        body: { data: { status: "Error", message: "Invalid or revoked API key." } },
      });
      const withoutVersion = await test(server.apiKey, server.baseUrl.replace(/\/api\/v1$/, ""));
      expect(withoutVersion.body.data).toMatchObject({
        status: "Error",
        message: expect.stringMatching(/^No Social Publish API at this Base URL\. It must include/),
      });
    } finally {
      await n8n.stop();
    }
  }, 480_000);

  it("imports every example workflow", async () => {
    const files = readdirSync(examplesDir).filter((file) => file.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const { stdout } = await n8n.mustRun(["import:workflow", "--separate", `--input=${examplesDir}`]);
    expect(stdout).toContain(`Successfully imported ${files.length} workflows.`);
    const listed = await n8n.mustRun(["list:workflow"]);
    for (const file of files) {
      const { id, name } = readExample(file);
      expect(listed.stdout).toContain(`${id}|${name}`);
    }
  }, 300_000);

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
            type: "n8n-nodes-socialpub.socialPublishTrigger",
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
      await n8n.mustRun(["unpublish:workflow", "--id=spwftrigger000001"]);
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  }, 480_000);

  it("runs the example weekly-analytics-digest.json: totals to date and the last 7 days' posts in one Slack message", async () => {
    const created = await api(server, "POST", "/posts", { caption: "Digest material", platforms: ["x"] });
    expect(created.status).toBe(201);
    const reported = await api(server, "POST", "/sandbox/metrics", {
      post_id: created.body.id,
      platform: "x",
      reach: 120,
      likes: 9,
      comments: 2,
      shares: 1,
    });
    expect(reported.status).toBeLessThan(300);
    const analytics = (await api(server, "GET", "/analytics")).body;
    expect(analytics.totalReach).toBeGreaterThan(0);

    const example = readExample("weekly-analytics-digest.json") as WorkflowFile & {
      nodes: Array<Record<string, unknown>>;
      connections: Record<string, { main: Array<Array<{ node: string; type?: string; index?: number }>> }>;
    };
    const schedule = example.nodes.find((node) => node.type === "n8n-nodes-base.scheduleTrigger");
    const first = example.connections[String(schedule?.name)]?.main[0]?.[0]?.node;
    if (first !== "Get analytics") throw new Error(`the schedule feeds ${first}, not Get analytics`);
    // n8n's CLI runs a workflow only from a Manual Trigger: one is added beside the schedule, feeding
    // the same first node, as "Execute workflow" in the editor would start it.
    example.nodes.push({
      id: randomUUID(),
      name: "Run now",
      type: "n8n-nodes-base.manualTrigger",
      typeVersion: 1,
      position: [0, 200],
      parameters: {},
    });
    example.connections["Run now"] = { main: [[{ node: first, type: "main", index: 0 }]] };
    for (const node of example.nodes) {
      if (node.type === "n8n-nodes-base.slack") node.credentials = { slackApi: SLACK_CREDENTIAL };
    }
    const workflow = n8n.writeJson("weekly-analytics-digest.json", example);
    await n8n.mustRun(["import:workflow", `--input=${workflow}`]);
    const calls = slack.calls.length;
    const { stdout } = await n8n.mustRun(["execute", `--id=${example.id}`, "--rawOutput"]);
    expect(parseRawOutput(stdout).status).toBe("success");

    const sent = slack.calls.slice(calls).filter((call) => call.method === "chat.postMessage");
    expect(sent).toHaveLength(1);
    const text = String(sent[0]?.body.text);
    expect(text).toContain(
      `*Social totals to date*\nReach: ${analytics.totalReach} · engagement ${analytics.engagementRate}% · ` +
        `${analytics.postsPublished} posts published · ${analytics.followers} followers`,
    );
    expect(text).toContain("• x: reach 120");
    expect(text).toContain("*Latest posts published in the last 7 days* (reach so far)\n");
    expect(text).toContain("• Digest material — reach 120");
  }, 300_000);

  it("runs the example post-published-to-slack.json: a published post becomes a Slack message per network", async () => {
    const example = readExample("post-published-to-slack.json");
    const trigger = example.nodes.find((node) => node.type === "n8n-nodes-socialpub.socialPublishTrigger");
    expect(trigger?.credentials).toEqual(credentialRef);
    // What the example's note asks of its user: pick a Slack credential in the Slack node.
    const slackNodes = example.nodes.filter((node) => node.type === "n8n-nodes-base.slack");
    expect(slackNodes).toHaveLength(1);
    for (const node of slackNodes) node.credentials = { slackApi: SLACK_CREDENTIAL };
    const workflow = n8n.writeJson("post-published-to-slack.json", example);
    await n8n.mustRun(["import:workflow", `--input=${workflow}`]);
    await n8n.mustRun(["publish:workflow", `--id=${example.id}`]);
    await n8n.start();
    try {
      const webhookUrl = `http://127.0.0.1:${n8n.port}/webhook/${trigger?.webhookId}/webhook`;
      await waitFor("the example's trigger to subscribe", async () => {
        const { body } = await api(server, "GET", "/webhooks");
        const endpoints = body.data as Array<{ url: string; events: string[]; status: string }>;
        return endpoints.find(
          (endpoint) => endpoint.url === webhookUrl && endpoint.events.join() === "post.published",
        );
      });

      const created = await api(server, "POST", "/posts", {
        caption: "Announced in Slack",
        platforms: ["x", "linkedin"],
      });
      expect(created.status).toBe(201);
      const postId = created.body.id as string;
      const messages = await waitFor("the example to message Slack once per network", async () => {
        const sent = slack.calls.filter(
          (call) => call.method === "chat.postMessage" && String(call.body.text).includes(postId),
        );
        return sent.length >= 2 ? sent : undefined;
      });

      const targets = await api(server, "GET", `/posts/${postId}/targets`);
      const permalinks = Object.fromEntries(
        (targets.body.data as Array<{ platform: string; permalink: string }>).map((target) => [
          target.platform,
          target.permalink,
        ]),
      );
      expect(messages).toHaveLength(2);
      for (const message of messages) {
        expect(message.headers.authorization).toBe(`Bearer ${SLACK_TOKEN}`);
        expect(message.body.channel).toBe("#social");
      }
      const texts = messages.map((message) => String(message.body.text)).sort();
      expect(texts[0]).toContain(
        `Live on linkedin: ${permalinks.linkedin}\n(post ${postId}, reach so far 0)`,
      );
      expect(texts[1]).toContain(`Live on x: ${permalinks.x}\n(post ${postId}, reach so far 0)`);
    } finally {
      await n8n.stop();
      await n8n.mustRun(["unpublish:workflow", `--id=${example.id}`]);
    }
  }, 480_000);
});
