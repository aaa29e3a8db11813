import { describe, expect, test } from "vitest";
import { startServerProcess } from "../scripts/server-process.ts";

async function root(args: string[], env: NodeJS.ProcessEnv = {}) {
  const server = await startServerProcess(args, env);
  try {
    const page = await fetch(`${server.url}/`);
    const health = await fetch(`${server.url}/healthz`);
    return {
      status: page.status,
      type: page.headers.get("content-type"),
      body: await page.text(),
      printed: server.output(),
      healthz: health.status,
    };
  } finally {
    await server.stop();
  }
}

describe("socialpub-server start serves the dashboard at /", () => {
  test("on by default with --dev, and the start banner says where", async () => {
    const answer = await root(["--dev"]);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain('id="socialpub-networks"');
    expect(answer.printed).toMatch(/^Dashboard: http:\/\/127\.0\.0\.1:\d+\/ /m);
    expect(answer.healthz).toBe(200);
  });

  test("off by default without --dev: / is the API's 404", async () => {
    const answer = await root([]);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: "Not found." });
    expect(answer.printed).not.toContain("Dashboard:");
  });

  test("--dashboard turns it on without --dev", async () => {
    expect((await root(["--dashboard"])).status).toBe(200);
  });

  test("--no-dashboard and SOCIALPUB_DASHBOARD=off turn it off even with --dev", async () => {
    expect((await root(["--dev", "--no-dashboard"])).status).toBe(404);
    expect((await root(["--dev"], { SOCIALPUB_DASHBOARD: "off" })).status).toBe(404);
  });

  test("SOCIALPUB_DASHBOARD=on turns it on", async () => {
    expect((await root([], { SOCIALPUB_DASHBOARD: "on" })).status).toBe(200);
  });
});
