import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core";
import { describe, expect, it, onTestFinished } from "vitest";
import { TelegramFake } from "../../packages/networks/src/telegram/fake/server.ts";
import { type ServerProcess, startServerProcess } from "../../packages/server/test/support/cli-process.ts";
import { readDatabase } from "../support/database.ts";
import { useFigures } from "../support/figures.ts";
import { call } from "../support/http.ts";
import { databaseArgs, newTestDatabase, openTestStore, STORE_NAME } from "../support/store.ts";

/*
 * A thread half published when the server process is killed: a live key, a Telegram channel on the
 * Telegram fake, a 4-part thread. Right after the fake takes part 2 it puts the chat under a flood
 * wait (429 with retry_after, as Telegram does), so part 3 is refused and the publish waits with
 * parts 1 and 2 out there and nothing in flight; the process is killed with SIGKILL then and started
 * again on the same database. When the wait is over the restarted server sends parts 3 and 4 only:
 * the chat holds each part exactly once, in order, each replying to the one before, and the target
 * lists the 4 parts published.
 */

const LIVE_KEY = `sp_live_${"ThreadAcrossKill0123456789abcdef".repeat(2)}`;
const PARTS = ["First part.", "Second part.", "Third part.", "Fourth part."];
/** How long the chat stays under the flood wait after part 2: long enough to kill and restart within. */
const FLOOD_SECONDS = 6;
const figures = useFigures("thread across a kill");

async function until<T>(what: string, check: () => Promise<T | null> | T | null, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe(`a thread across kill -9, ${STORE_NAME} store`, () => {
  it("a 4-part thread killed after part 2 goes on after the restart: each part on Telegram exactly once, in order, each replying to the one before", async () => {
    const cleanups: (() => unknown)[] = [];
    onTestFinished(async () => {
      for (const clean of cleanups.splice(0).reverse()) await clean();
    });

    let chatId = 0;
    const telegram = await TelegramFake.start({
      onRequest: (request) => {
        // Called before the answer leaves: the flood wait is on before the server hears part 2 went out.
        if (request.method === "sendMessage" && request.status === 200) {
          if (telegram.messages(chatId).length === 2) telegram.floodWait(chatId, FLOOD_SECONDS);
        }
      },
    });
    cleanups.push(() => telegram.close());
    const { bot, chat } = telegram.addChannelWithBot({
      bot: { username: "socialpub_bot" },
      title: "Threads",
      username: "thread_channel",
    });
    chatId = chat.id;

    const database = await newTestDatabase("thread-kill");
    cleanups.push(() => database.remove());
    const store = await openTestStore(database.location);
    await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
    await store.close();

    const env = {
      SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
      SOCIALPUB_TELEGRAM_API_URL: telegram.url,
    };
    const args = [...databaseArgs(database.location), "--rate-limit", "0", "--log-level", "warn"];
    const start = async (): Promise<ServerProcess> => {
      const server = await startServerProcess([...args, "--allow-private-urls"], env);
      cleanups.push(() => server.stop("SIGKILL"));
      return server;
    };

    let server = await start();
    const connected = await call(figures, server, LIVE_KEY, "POST", "/accounts/connect", {
      body: { platform: "telegram", bot_token: bot.token, chat: "@thread_channel" },
    });
    expect(connected.status, connected.text).toBe(201);

    const created = await call(figures, server, LIVE_KEY, "POST", "/posts", {
      body: {
        caption: PARTS[0],
        platforms: ["telegram"],
        thread: PARTS.slice(1).map((caption) => ({ caption })),
      },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;

    // Part 3 was refused by the flood wait, and the store says so: parts 1 and 2 saved as sent, no part
    // being sent. Killed now, nothing is in flight, so nothing is left whose outcome is unknown.
    await until("part 3 refused by the flood wait", () =>
      telegram.requests.some((r) => r.method === "sendMessage" && r.status === 429) ? true : null,
    );
    const saved = await until("the progress saved after part 2", async () => {
      const step = await readDatabase(database.location, (db) => db.publishStep(id, "telegram"));
      const progress = step === null ? null : (JSON.parse(step) as Record<string, unknown>);
      return progress && progress.thread_sending === null ? progress : null;
    });
    expect(JSON.parse(String(saved.thread_sent)).map((p: { id: string }) => Number(p.id))).toEqual(
      telegram.messages(chat.id).map((m) => m.messageId),
    );
    expect(telegram.messages(chat.id).map((m) => m.text)).toEqual(PARTS.slice(0, 2));

    server.child.kill("SIGKILL");
    expect(await server.stop()).toBe("SIGKILL");
    figures.faults++;
    server = await start();

    const targets = await until(
      "the thread published after the restart",
      async () => {
        const res = await call(figures, server, LIVE_KEY, "GET", `/posts/${id}/targets`);
        expect(res.status, res.text).toBe(200);
        const target = res.body.data[0];
        if (target.status === "failed") throw new Error(`the thread failed: ${res.text}`);
        return target.status === "published" ? res.body.data : null;
      },
      FLOOD_SECONDS * 1000 + 60_000,
    );
    figures.postsChecked++;

    const messages = telegram.messages(chat.id);
    expect(messages.map((m) => m.text)).toEqual(PARTS);
    messages.forEach((message, i) => {
      expect(message.replyTo, `part ${i + 1} replies to the one before`).toBe(
        i === 0 ? undefined : messages[i - 1]!.messageId,
      );
    });
    expect(targets).toHaveLength(1);
    const parts = targets[0].parts as { text: string; status: string; permalink: string | null }[];
    expect(parts.map((p) => [p.text, p.status])).toEqual(PARTS.map((text) => [text, "published"]));
    expect(parts.map((p) => p.permalink)).toEqual(
      messages.map((m) => `https://t.me/thread_channel/${m.messageId}`),
    );
    const post = await call(figures, server, LIVE_KEY, "GET", `/posts/${id}`);
    expect(post.body.status).toBe("published");
    if (messages.length !== PARTS.length) figures.lost++;
    telegram.assertSpecCompliant();
  });
});
