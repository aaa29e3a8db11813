import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Store, sentParts } from "@socialpub/core";
import { expect, it } from "vitest";
import { runProgram } from "./cli-process.ts";

/*
 * A thread in progress survives `kill -9`: a process publishing a thread part by part
 * (thread-publisher.ts) is killed at an exact point, and the next process on the same database
 * recovers the attempt (a server's start on SQLite, a lease takeover on PostgreSQL), continues from the
 * first part not published, and never sends a part twice: not the parts saved as published, not the
 * one whose answer the kill cut off (found on the network instead), and the one the kill stopped before
 * it left is sent once. The same checks on either store.
 */

const PUBLISHER = fileURLToPath(new URL("./thread-publisher.ts", import.meta.url));
const TEXTS = ["Part one.", "Part two.", "Part three.", "Part four."];
const POST_ID = "post_01THREADKILLRESUME000000000";

interface Message {
  id: string;
  permalink: string;
  text: string;
  reply_to: string | null;
}

/** A network that threads by replies: every message sent, and the replies to one, read back. */
async function threadNetwork(): Promise<{ url: string; messages: Message[]; server: Server }> {
  const messages: Message[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://network");
    let body = "";
    for await (const chunk of request) body += chunk;
    let answer: unknown;
    if (request.method === "POST" && url.pathname === "/messages") {
      const { text, reply_to } = JSON.parse(body) as { text: string; reply_to: string | null };
      const id = String(messages.length + 1);
      const message = { id, permalink: `https://network.example/m/${id}`, text, reply_to };
      messages.push(message);
      answer = { id, permalink: message.permalink };
    } else {
      answer = messages.filter((m) => m.reply_to === url.searchParams.get("reply_to"));
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, messages, server };
}

/** Where a case runs: a new database (a file path or a URL) and a store opened on it. */
export interface ThreadKillStore {
  database(): Promise<string>;
  open(database: string): Promise<Store>;
}

async function killedThenResumed(stores: ThreadKillStore, kill: string) {
  const database = await stores.database();
  const network = await threadNetwork();
  try {
    const run = (...args: string[]) =>
      runProgram(process.execPath, [PUBLISHER, database, network.url, ...args], { timeoutMs: 60_000 });

    const killed = await run("start", kill);
    expect(killed.stdout).toBe(`killed at ${kill}\n`);
    // What the killed process left, read by another process as the next one will.
    const store = await stores.open(database);
    const [left] = await store.getTargets(POST_ID);
    await store.close();
    const sentBefore = network.messages.length;

    const resumed = await run("resume");
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("published\n");

    // Every part once, in order, each a reply to the one before.
    expect(network.messages.map((m) => m.text)).toEqual(TEXTS);
    expect(network.messages.map((m) => m.reply_to)).toEqual([null, "1", "2", "3"]);
    const after = await stores.open(database);
    const [target] = await after.getTargets(POST_ID);
    const post = await after.getPost("usr_thread", POST_ID);
    await after.close();
    expect(post!.status).toBe("published");
    expect(post!.rich).toEqual({ thread: TEXTS.slice(1).map((caption) => ({ caption })) });
    expect(target).toMatchObject({ status: "published", attempts: 2, remote_id: "1" });
    expect(target!.parts).toEqual(
      network.messages.map((m) => ({
        text: m.text,
        media: [],
        status: "published",
        remote_id: m.id,
        permalink: m.permalink,
      })),
    );
    return { left: left!, sentBefore };
  } finally {
    network.server.close();
  }
}

/** The cases, as tests of the calling describe block. */
export function threadKillCases(stores: ThreadKillStore): void {
  it("killed just after part 2 was saved as published: the next process sends parts 3 and 4, once each", {
    timeout: 120_000,
  }, async () => {
    // Each part saves twice: before it is sent, and once it is.
    const { left, sentBefore } = await killedThenResumed(stores, "save:4");
    expect(sentBefore).toBe(2);
    expect(left).toMatchObject({ in_flight: true, attempts: 1 });
    expect(sentParts(JSON.parse(left.publish_step!)).map((p) => p.id)).toEqual(["1", "2"]);
  });

  it("killed after the network took part 3 and before its answer was saved: part 3 is found there, not sent again", {
    timeout: 120_000,
  }, async () => {
    const { left, sentBefore } = await killedThenResumed(stores, "answer:3");
    expect(sentBefore).toBe(3);
    expect(JSON.parse(left.publish_step!)).toMatchObject({ thread_sending: 2 });
  });

  it("killed after part 3 was marked as being sent and before it left: it is looked for, then sent once", {
    timeout: 120_000,
  }, async () => {
    const { left, sentBefore } = await killedThenResumed(stores, "save:5");
    expect(sentBefore).toBe(2);
    expect(JSON.parse(left.publish_step!)).toMatchObject({ thread_sending: 2 });
  });
}
