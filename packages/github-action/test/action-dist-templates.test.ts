import { SocialPublishClient } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseEvent, TFLINT_NOTES } from "./support/payloads.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";
import { runStep } from "./support/runner.ts";

/*
 * The `templates` input end to end: the committed bundle, started as a runner starts it, against the
 * real reference server; each network's text read back from the service's targets.
 */

let server: ReferenceServer;
let client: SocialPublishClient;

beforeAll(async () => {
  server = await startReferenceServer();
  client = new SocialPublishClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
}, 30_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe("node dist/index.js with a template per network", () => {
  it("each network with a template publishes its own text; the others the shared caption", async () => {
    const run = await runStep({
      inputs: {
        "api-key": server.apiKey,
        "base-url": server.baseUrl,
        platforms: "x, linkedin, bluesky",
        templates:
          'x: "{name} is out: {url}"\nlinkedin: |\n  {repo} {version} for teams\n  {url}\n\n  {body}\n',
      },
      eventName: "release",
      payload: releaseEvent("published", {
        id: 1701,
        tag: "v0.50.0",
        name: "TFLint v0.50.0",
        body: TFLINT_NOTES,
      }),
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const url = "https://github.com/octo/app/releases/tag/v0.50.0";
    const { data: targets } = await client.posts.targets(run.outputs["post-id"]!);
    const text = Object.fromEntries(targets.map((t) => [t.platform, t.text]));
    expect(targets.every((t) => t.status === "published")).toBe(true);
    expect(text.x).toBe(`TFLint v0.50.0 is out: ${url}`);
    expect(text.linkedin!.startsWith(`octo/app 0.50.0 for teams\n${url}\n\n`)).toBe(true);
    expect(text.bluesky!.startsWith(`octo/app TFLint v0.50.0\n${url}\n\n`)).toBe(true);
    // The shared caption is what every network without a template of its own got.
    expect(run.outputs.caption!.startsWith("octo/app TFLint v0.50.0\n")).toBe(true);
    expect(run.summary).toContain("X's own text");
    expect(run.summary).toMatch(/^\| X \| published \| \d+ \/ 280 \| /m);
  });

  it("a template naming an unknown network or variable fails the step before anything is posted", async () => {
    const before = (await client.posts.list()).data.length;
    const run = await runStep({
      inputs: { "api-key": server.apiKey, "base-url": server.baseUrl, templates: "x: '{nmae}'" },
      eventName: "release",
      payload: releaseEvent("published", { id: 1702, tag: "v0.51.0" }),
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("`templates` input's x uses {nmae}");
    expect((await client.posts.list()).data.length).toBe(before);
  });
});
