import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../packages/server/test/support/cli-process.ts";
import { useFigures } from "../support/figures.ts";
import { type Answer, call } from "../support/http.ts";
import { type InProcessServer, startInProcessServer } from "../support/in-process-server.ts";
import { STORE_NAME } from "../support/store.ts";

const figures = useFigures("tenant isolation and revoked keys");

let target: InProcessServer;
let alice: { id: string; key: string };
let bob: { id: string; key: string };
/** Alice's resources, by the kind of id a path takes. */
const hers = { post: "", draft: "", scheduled: "", webhook: "", media: "", event: "", platform: "bluesky" };

beforeAll(async () => {
  target = await startInProcessServer({ service: { allowPrivateWebhookUrls: true } });
  alice = await target.user({ email: "alice@example.com", accounts: ["x", "bluesky", "instagram"] });
  bob = await target.user({ email: "bob@example.com", accounts: ["x", "linkedin"] });
  const as = (method: string, path: string, body?: unknown) =>
    call(figures, target.server, alice.key, method, path, body === undefined ? {} : { body });
  hers.post = (
    await as("POST", "/posts", { caption: "Alice's launch", platforms: ["x", "bluesky"] })
  ).body.id;
  hers.draft = (
    await as("POST", "/posts", { caption: "Alice's draft", platforms: ["x"], draft: true })
  ).body.id;
  hers.scheduled = (
    await as("POST", "/posts", {
      caption: "Alice later",
      platforms: ["bluesky"],
      schedule_at: Date.now() + 86_400_000,
    })
  ).body.id;
  hers.webhook = (await as("POST", "/webhooks", { url: "http://127.0.0.1:9/alice" })).body.id;
  const upload = await fetch(`${target.server.url}/api/v1/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${alice.key}`, "content-type": "image/png" },
    body: SAMPLE_PNG,
  });
  hers.media = ((await upload.json()) as { id: string }).id;
  await as("POST", "/sandbox/metrics", { post_id: hers.post, platform: "x", reach: 100, likes: 7 });
  hers.event = (await target.store.listEvents(alice.id)).find((e) => e.type === "post.published")!.id;
});

afterAll(async () => {
  await target?.close();
});

/** Everything Alice has, read with her key: it must be the same before and after Bob's attempts. */
async function aliceState(): Promise<unknown> {
  const as = (path: string) => call(figures, target.server, alice.key, "GET", path).then((r) => r.body);
  return {
    posts: await as("/posts"),
    targets: await as(`/posts/${hers.post}/targets`),
    accounts: await as("/accounts"),
    webhooks: await as("/webhooks"),
    analytics: await as("/analytics"),
    events: (await target.store.listEvents(alice.id)).map((e) => e.id),
  };
}

interface Operation {
  method: string;
  path: string;
  auth: boolean;
}

async function operations(): Promise<Operation[]> {
  const doc = (await (await fetch(`${target.server.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "delete", "patch"].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, auth: (op.security ?? []).length > 0 })),
  );
}

/** The path with each parameter replaced: by Alice's resource of that kind, or by an unknown one. */
function fill(path: string, whose: "hers" | "unknown"): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "platform") return whose === "hers" ? hers.platform : "telegram";
    if (name === "event_id") return whose === "hers" ? hers.event : "evt_01J00000000000000000000000";
    if (path.startsWith("/webhooks"))
      return whose === "hers" ? hers.webhook : "wh_01J00000000000000000000000";
    if (path.startsWith("/media")) return whose === "hers" ? hers.media : "med_01J00000000000000000000000";
    if (path.endsWith("/publish")) return whose === "hers" ? hers.draft : "post_01J00000000000000000000000";
    return whose === "hers" ? hers.post : "post_01J00000000000000000000000";
  });
}

/** Bodies that would succeed on one's own resource, so only ownership can refuse them. */
const BODIES: Record<string, unknown> = {
  "PATCH /sandbox/accounts/{platform}": { health: "reauth_required" },
  "POST /sandbox/accounts/{platform}": { health: "reauth_required" },
  "POST /posts/{id}/publish": {},
  "POST /webhooks/{id}/test": {},
  "PATCH /webhooks/{id}": { status: "enabled" },
  "PATCH /posts/{id}": { caption: "Edited by whoever holds the key" },
};

/** An answer with the id it names taken out, to compare Alice's id with an unknown one. */
const shape = (res: Answer, ...ids: string[]) => ({
  status: res.status,
  body: ids.reduce((text, id) => text.replaceAll(id, "<id>"), res.text),
});

describe(`tenant isolation, ${STORE_NAME} store`, () => {
  it("on every operation that takes an id, another user's resource answers exactly as an unknown id, and stays as it was", async () => {
    const before = await aliceState();
    const withIds = (await operations()).filter((op) => op.auth && op.path.includes("{"));
    expect(withIds.length).toBeGreaterThanOrEqual(10);
    for (const op of withIds) {
      const name = `${op.method} ${op.path}`;
      const body = BODIES[name];
      const options = body === undefined ? {} : { body };
      const mine = fill(op.path, "hers");
      const unknown = fill(op.path, "unknown");
      const asBob = await call(figures, target.server, bob.key, op.method, mine, options);
      const asBobUnknown = await call(figures, target.server, bob.key, op.method, unknown, options);
      figures.postsChecked++;
      expect(asBob.status, `${name}: ${asBob.text}`).toBe(404);
      expect(shape(asBob, hers.platform), name).toEqual(shape(asBobUnknown, "telegram"));
    }
    expect(await aliceState()).toEqual(before);
  });

  it("Alice's ids in Bob's bodies are unknown to him: metrics, media", async () => {
    const before = await aliceState();
    const bobs = (method: string, path: string, body: unknown) =>
      call(figures, target.server, bob.key, method, path, { body });
    const metrics = await bobs("POST", "/sandbox/metrics", {
      post_id: hers.post,
      platform: "x",
      reach: 1_000_000,
    });
    const unknownMetrics = await bobs("POST", "/sandbox/metrics", {
      post_id: "post_01J00000000000000000000000",
      platform: "x",
      reach: 1_000_000,
    });
    expect(metrics.status).toBe(404);
    expect(metrics.body).toEqual(unknownMetrics.body);
    for (const path of ["/posts", "/schedule"]) {
      const withHerMedia = await bobs("POST", path, {
        caption: "Mine?",
        platforms: ["x"],
        media: hers.media,
        at: "next",
      });
      const withUnknown = await bobs("POST", path, {
        caption: "Mine?",
        platforms: ["x"],
        media: "med_01J00000000000000000000000",
        at: "next",
      });
      expect(withHerMedia.status).toBe(400);
      expect(shape(withHerMedia, hers.media)).toEqual(shape(withUnknown, "med_01J00000000000000000000000"));
    }
    expect(await aliceState()).toEqual(before);
  });

  it("Bob's lists and analytics never show Alice's posts, accounts, webhooks or figures", async () => {
    const bobs = (path: string) => call(figures, target.server, bob.key, "GET", path).then((r) => r.body);
    expect((await bobs("/posts")).data).toEqual([]);
    expect((await bobs("/webhooks")).data).toEqual([]);
    expect((await bobs("/accounts")).data.map((a: { platform: string }) => a.platform)).toEqual([
      "x",
      "linkedin",
    ]);
    expect(await bobs("/analytics")).toMatchObject({ totalReach: 0, postsPublished: 0 });
    expect((await bobs("/me")).email).toBe("bob@example.com");
    const text = JSON.stringify(
      await Promise.all(["/posts", "/webhooks", "/accounts", "/analytics"].map(bobs)),
    );
    for (const id of [hers.post, hers.draft, hers.scheduled, hers.webhook, hers.media])
      expect(text).not.toContain(id);
  });
});

describe(`revoked keys, ${STORE_NAME} store`, () => {
  it("a key revoked with the CLI's keys revoke is refused at once, even while requests stream in", async () => {
    const created = await runCli(["keys", "create", "--user", "alice@example.com", "--db", target.db]);
    expect(created.code, created.stderr).toBe(0);
    const key = /^API key: (\S+)$/m.exec(created.stdout)![1]!;
    const keyId = /Created test key (key_\S+) /.exec(created.stdout)![1]!;
    expect((await call(figures, target.server, key, "GET", "/me")).status).toBe(200);

    // Requests keep coming while the key is revoked; every one sent after the revocation is refused.
    let revokedAt: number | null = null;
    const afterRevocation: Answer[] = [];
    let streaming = true;
    const stream = (async () => {
      while (streaming) {
        const sentAt = Date.now();
        const res = await call(figures, target.server, key, "GET", "/posts");
        if (revokedAt !== null && sentAt > revokedAt) afterRevocation.push(res);
      }
    })();
    const revoked = await runCli(["keys", "revoke", keyId, "--db", target.db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    revokedAt = Date.now();
    while (afterRevocation.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    streaming = false;
    await stream;
    figures.faults++;
    for (const res of afterRevocation) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Invalid or revoked API key." });
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    }
    // Alice's other key still works.
    expect((await call(figures, target.server, alice.key, "GET", "/me")).status).toBe(200);
  });

  it("a key revoked in the store is refused on the next request, writes included", async () => {
    const [key] = await target.store.listKeys(bob.id);
    expect((await call(figures, target.server, bob.key, "GET", "/me")).status).toBe(200);
    await target.store.revokeKey(key!.id, Date.now());
    figures.faults++;
    for (const [method, path, body] of [
      ["GET", "/me", undefined],
      ["POST", "/posts", { caption: "After", platforms: ["x"] }],
      ["DELETE", `/posts/${hers.post}`, undefined],
    ] as const) {
      const res = await call(figures, target.server, bob.key, method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect((await call(figures, target.server, alice.key, "GET", `/posts/${hers.post}`)).status).toBe(200);
  });
});
