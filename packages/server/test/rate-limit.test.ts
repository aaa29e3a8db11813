import { afterEach, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess, TEST_KEY } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
  for (const dir of dirs.splice(0)) dir.remove();
});

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const dir = tempDir();
  dirs.push(dir);
  const server = await startServerProcess(
    ["--dev", "--dev-key", TEST_KEY, "--db", dir.file("limit.db"), "--log-level", "warn", ...args],
    env,
  );
  servers.push(server);
  return server;
}

const me = (server: ServerProcess) =>
  fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${TEST_KEY}` } });

describe("rate limit per key, configured on the server", () => {
  it("SOCIALPUB_RATE_LIMIT sets it: RateLimit-Policy and RateLimit tell the quota, then 429 with Retry-After", async () => {
    const server = await serve([], { SOCIALPUB_RATE_LIMIT: "3" });
    for (let remaining = 2; remaining >= 0; remaining--) {
      const res = await me(server);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"default";r=${remaining};t=\\d+$`));
    }
    const refused = await me(server);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit")).toBe(`"default";r=0;t=${retryAfter}`);
    expect(await refused.json()).toEqual({
      error: `Too many requests: this key may make 3 requests every 60 seconds; retry in ${retryAfter} s.`,
    });
  });

  it("--rate-limit wins over the environment, and 0 turns the limit off", async () => {
    const flagged = await serve(["--rate-limit", "5"], { SOCIALPUB_RATE_LIMIT: "3" });
    expect((await me(flagged)).headers.get("ratelimit-policy")).toBe('"default";q=5;w=60');
    const open = await serve(["--rate-limit", "0"]);
    for (let i = 0; i < 20; i++) {
      const res = await me(open);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    }
  });
});
