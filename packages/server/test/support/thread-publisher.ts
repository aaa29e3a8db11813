/**
 * One attempt at publishing a thread, as the publishing worker makes it, on a SQLite file or a
 * PostgreSQL database and against a network that threads by replies (`threadNetwork` in
 * thread-kill-case.ts): the first run stores the post and begins its attempt; a later run (`resume`)
 * recovers what a killed run left in flight, as a server does when it starts (SQLite) or as another
 * instance takes a post over once its lease has run out (PostgreSQL), and claims it again. Each part goes through `publishThread`, which saves
 * its progress on the target with `saveTargetStep`. Once the thread is out the outcome is written with
 * `finishTargets`, and the process prints `published`.
 *
 *   node thread-publisher.ts <database file or postgres:// URL> <network url> start|resume [kill]
 *
 * `kill` makes the process SIGKILL itself at an exact point: `save:<n>` just after the n-th step it
 * saved has committed, or `answer:<i>` once the network has answered for part i (1-based) and before
 * the answer is saved, so the answer is lost.
 */
import {
  NetworkError,
  NOT_ATTEMPTED,
  type PartRecord,
  type PostRecord,
  publishThread,
  type SentPart,
  type TargetRecord,
} from "@socialpub/core/service";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.ts";

const [database, network, mode, kill = ""] = process.argv.slice(2);
if (!database || !network || (mode !== "start" && mode !== "resume"))
  throw new Error("usage: thread-publisher.ts <database> <network url> start|resume [kill]");

const POST_ID = "post_01THREADKILLRESUME000000000";
const TEXTS = ["Part one.", "Part two.", "Part three.", "Part four."];

const die = (where: string): Promise<never> => {
  process.stdout.write(`killed at ${where}\n`);
  process.kill(process.pid, "SIGKILL");
  // Nothing else runs while the signal lands.
  return new Promise(() => {});
};

const store = database.startsWith("postgres")
  ? await openPostgresStore(database, { poolSize: 2 })
  : openSqliteStore(database);
const now = Date.now();
let target: TargetRecord;
let post: PostRecord;
if (mode === "start") {
  await store.createUser({
    id: "usr_thread",
    email: "thread@example.com",
    name: "T",
    studio: "T",
    plan: "creator",
    created_at: now,
  });
  post = {
    id: POST_ID,
    user_id: "usr_thread",
    mode: "live",
    caption: TEXTS[0]!,
    platforms: ["telegram"],
    status: "publishing",
    media: null,
    scheduled_at: null,
    published_at: null,
    created_at: now,
    rich: { thread: TEXTS.slice(1).map((caption) => ({ caption })) },
  };
  const parts = TEXTS.map(
    (text): PartRecord => ({ text, media: [], status: "pending", remote_id: null, permalink: null }),
  );
  await store.insertPost(post, [
    {
      post_id: post.id,
      platform: "telegram",
      status: "pending",
      text: TEXTS[0]!,
      permalink: null,
      error: null,
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      ...NOT_ATTEMPTED,
      parts,
      first_comment: null,
      notes: [],
    },
  ]);
  [target] = (await store.beginTargetAttempts(post.id, ["telegram"], now)) as [TargetRecord];
} else {
  let at = now;
  if (store.shared) {
    // Another instance, once the killed one's lease has run out: it takes the post over, and the
    // attempts left in flight are of unknown outcome, due at once.
    at = now + 24 * 60 * 60 * 1000;
    await store.claimDuePosts(at, 10);
  } else {
    // What a server does when it starts: attempts left in flight are of unknown outcome, and due now.
    await store.releaseInterruptedTargets(now + 1, now);
  }
  const [claimed] = await store.claimDueTargets(at, 10);
  if (!claimed) throw new Error("nothing to resume");
  ({ post, target } = claimed);
}

const call = async (path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(new URL(path, network), {
    method: body === undefined ? "GET" : "POST",
    ...(body !== undefined && {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  });
  if (!response.ok) throw new NetworkError("telegram", "retry", `the network answered ${response.status}`);
  return response.json();
};

let saves = 0;
const published = await publishThread(
  "telegram",
  {
    postId: post.id,
    text: post.caption,
    media: [],
    thread: (post.rich?.thread ?? []).map((part) => ({ text: part.caption, media: [] })),
    firstComment: null,
    key: post.id,
    signal: new AbortController().signal,
    step: target.publish_step === null ? null : JSON.parse(target.publish_step),
    saveStep: async (step) => {
      if (!(await store.saveTargetStep(post.id, "telegram", target.attempts, JSON.stringify(step))))
        throw new NetworkError("telegram", "retry", "the attempt was cut off");
      if (kill === `save:${++saves}`) await die(kill);
    },
  },
  {
    send: async (part, parent) => {
      const sent = (await call("/messages", { text: part.text, reply_to: parent?.id ?? null })) as SentPart;
      if (kill === `answer:${part.index + 1}`) await die(kill);
      return sent;
    },
    find: async (part, parent) => {
      const replies = (await call(`/messages?reply_to=${parent?.id ?? ""}`)) as (SentPart & {
        text: string;
      })[];
      const found = replies.find((m) => m.text === part.text);
      return found ? { id: found.id, permalink: found.permalink } : null;
    },
  },
);

const sent = published.parts ?? [{ id: published.id, permalink: published.permalink }];
await store.finishTargets(
  post.id,
  [
    {
      ...target,
      status: "published",
      permalink: published.permalink,
      published_at: now,
      in_flight: false,
      remote_id: published.id,
      publish_step: null,
      parts: (target.parts ?? []).map((p, i) => ({
        ...p,
        status: "published",
        remote_id: sent[i]!.id,
        permalink: sent[i]!.permalink,
      })),
    },
  ],
  now,
);
await store.close();
process.stdout.write("published\n");
