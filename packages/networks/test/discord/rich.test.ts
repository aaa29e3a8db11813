import type { PublishInput } from "@socialpub/core";
import { beforeAll, describe, expect, it } from "vitest";
import { DiscordFake } from "../../src/discord/fake/server.ts";
import { pollHours } from "../../src/discord/publish.ts";
import { discordAdapter } from "../../src/index.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { losingFetch } from "../helpers/losing-fetch.ts";
import { contextOf, fileOf, postOf, sessionOf } from "../helpers/session.ts";
import { withSteps } from "../helpers/steps.ts";

// Rich posts on Discord: up to 10 files with alt text, polls, forum threads, messages in sequence.
const network = fakeNetwork(() => DiscordFake.start(), 180_000);
const failure = network.failure;
let fake: DiscordFake;
let adapter: ReturnType<typeof discordAdapter>;

beforeAll(() => {
  fake = network.fake;
  adapter = discordAdapter({ apiUrl: fake.url });
});

async function connected(options: { forum?: boolean } = {}) {
  const webhook = fake.addWebhook({ name: "Releases", ...options });
  network.secret(webhook.token);
  const account = await adapter.connect({ webhook_url: webhook.url }, contextOf());
  return { webhook, session: sessionOf(account.credentials, account.handle) };
}

const rich = (text: string, extra: Partial<PublishInput>, media = [] as ReturnType<typeof fileOf>[]) => ({
  ...postOf(text, media),
  ...extra,
});

const link = (webhook: { guildId: string }, channel: string, id: string) =>
  `https://discord.com/channels/${webhook.guildId}/${channel}/${id}`;

describe("files", () => {
  it("carries 10 files in one message, each with its alt text as the attachment's description", async () => {
    const { webhook, session } = await connected();
    const media = Array.from({ length: 10 }, (_, i) =>
      fileOf(i === 9 ? "video/mp4" : "image/png", `f${i}.${i === 9 ? "mp4" : "png"}`, 1024, `picture ${i}`),
    );
    await adapter.publish(session, postOf("Ten", media));
    const [message] = fake.messages(webhook.id);
    expect(message?.attachments.map((a) => [a.filename, a.description])).toEqual(
      media.map((m) => [m.filename, m.alt]),
    );
  });
});

describe("threads and first comment", () => {
  it("sends the parts as messages in order, then the first comment, each under the post's username", async () => {
    const { webhook, session } = await connected();
    const published = await adapter.publish(
      session,
      rich("Release 3.0", {
        thread: [
          { text: "New: polls", media: [fileOf("image/png", "poll.png", 2048, "A poll with three answers")] },
          { text: "Upgrade notes", media: [] },
        ],
        firstComment: "Download: https://example.com/3.0",
        options: { username: "Release bot" },
      }),
    );
    const messages = fake.messages(webhook.id);
    expect(messages.map((m) => [m.content, m.username])).toEqual([
      ["Release 3.0", "Release bot"],
      ["New: polls", "Release bot"],
      ["Upgrade notes", "Release bot"],
      ["Download: https://example.com/3.0", "Release bot"],
    ]);
    expect(messages[1]?.attachments[0]?.description).toBe("A poll with three answers");
    const [first, second, third, comment] = messages.map((m) => link(webhook, webhook.channelId, m.id));
    expect(published).toEqual({
      id: messages[0]!.id,
      permalink: first,
      parts: [
        { id: messages[0]!.id, permalink: first },
        { id: messages[1]!.id, permalink: second },
        { id: messages[2]!.id, permalink: third },
      ],
      firstComment: { status: "published", permalink: comment, error: null },
    });
  });

  it("continues from the first part not published, never sending one twice", async () => {
    const { webhook, session } = await connected();
    const post = withSteps(
      rich("one", {
        thread: [
          { text: "two", media: [] },
          { text: "three", media: [] },
        ],
        firstComment: "c",
      }),
    );
    let sends = 0;
    const cut = discordAdapter({
      apiUrl: fake.url,
      fetch: async (input, init) => {
        if (init?.method === "POST" && ++sends === 3) {
          throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
        }
        return fetch(input, init);
      },
    });
    const stopped = await failure(() => cut.publish(session, post.post));
    expect(stopped.kind).toBe("retry");
    expect(stopped.message).toMatch(/^part 3 of 3: /);
    expect(fake.messages(webhook.id).map((m) => m.content)).toEqual(["one", "two"]);
    const lossy = losingFetch();
    const resumed = await discordAdapter({ apiUrl: fake.url, fetch: lossy.fetch }).publish(
      session,
      post.resumed(),
    );
    expect(lossy.requests).toEqual([
      `POST /api/v10/webhooks/${webhook.id}/${webhook.token}?wait=true`,
      `POST /api/v10/webhooks/${webhook.id}/${webhook.token}?wait=true`,
    ]);
    expect(fake.messages(webhook.id).map((m) => m.content)).toEqual(["one", "two", "three", "c"]);
    expect(resumed.parts).toHaveLength(3);
    expect(resumed.firstComment?.status).toBe("published");
  });

  it("fails a part whose answer never came as outcome unknown (a webhook reads nothing back)", async () => {
    const { webhook, session } = await connected();
    const lossy = losingFetch();
    const flaky = discordAdapter({ apiUrl: fake.url, fetch: lossy.fetch });
    const post = withSteps(rich("first", { thread: [{ text: "second", media: [] }] }));
    lossy.loseNext(/^POST .*\?wait=true$/);
    const lost = await failure(() => flaky.publish(session, post.post));
    expect(lost.kind).toBe("unknown");
    expect(lost.message).toMatch(/^part 1 of 2: /);
    const before = lossy.requests.length;
    const again = await failure(() => flaky.publish(session, post.resumed()));
    expect(again.kind).toBe("unknown");
    expect(again.message).toMatch(
      /part 1 of 2: the outcome of sending it is unknown and discord gives no way to check/,
    );
    expect(lossy.requests.length).toBe(before);
    expect(fake.messages(webhook.id).map((m) => m.content)).toEqual(["first"]);
  });

  it("a first comment Discord refuses leaves the post published and says why", async () => {
    const { webhook, session } = await connected();
    const published = await adapter.publish(session, rich("Post", { firstComment: "x".repeat(2001) }));
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment?.error).toMatch(/content: Must be 2000 or fewer in length/);
    expect(fake.messages(webhook.id)).toHaveLength(1);
  });
});

describe("forum channels", () => {
  it("opens the post's thread with thread_name; the parts and the first comment follow in it", async () => {
    const { webhook, session } = await connected({ forum: true });
    const lossy = losingFetch();
    const published = await discordAdapter({ apiUrl: fake.url, fetch: lossy.fetch }).publish(
      session,
      rich("Release 3.1", {
        thread: [{ text: "Details", media: [] }],
        firstComment: "Questions welcome",
        options: { thread_name: "Release 3.1" },
      }),
    );
    const thread = fake.threads().find((t) => t.parentId === webhook.channelId);
    expect(thread?.name).toBe("Release 3.1");
    const messages = fake.messages(webhook.id);
    expect(messages.map((m) => [m.content, m.channelId])).toEqual([
      ["Release 3.1", thread!.id],
      ["Details", thread!.id],
      ["Questions welcome", thread!.id],
    ]);
    expect(published.permalink).toBe(link(webhook, thread!.id, messages[0]!.id));
    expect(lossy.requests.slice(1).map((r) => r.split("?")[1])).toEqual([
      `wait=true&thread_id=${thread!.id}`,
      `wait=true&thread_id=${thread!.id}`,
    ]);
  });

  it("resumes a forum post inside the thread its first message opened", async () => {
    const { webhook, session } = await connected({ forum: true });
    const post = withSteps(
      rich("Opening", { thread: [{ text: "Later", media: [] }], options: { thread_name: "Resumed" } }),
    );
    let sends = 0;
    const cut = discordAdapter({
      apiUrl: fake.url,
      fetch: async (input, init) => {
        if (init?.method === "POST" && ++sends === 2) {
          throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
        }
        return fetch(input, init);
      },
    });
    expect((await failure(() => cut.publish(session, post.post))).message).toMatch(/^part 2 of 2: /);
    await adapter.publish(session, post.resumed());
    const thread = fake.threads().find((t) => t.parentId === webhook.channelId);
    expect(fake.threads().filter((t) => t.parentId === webhook.channelId)).toHaveLength(1);
    expect(fake.messages(webhook.id).map((m) => [m.content, m.channelId])).toEqual([
      ["Opening", thread!.id],
      ["Later", thread!.id],
    ]);
  });

  it("says what to fix: a forum webhook without thread_name, thread_name on a text channel", async () => {
    const forum = await connected({ forum: true });
    const untitled = await failure(() => adapter.publish(forum.session, postOf("No title")));
    expect(untitled.kind).toBe("refused");
    expect(untitled.message).toMatch(/forum channel.*options\.discord\.thread_name/);
    const text = await connected();
    const titled = await failure(() =>
      adapter.publish(text.session, rich("Titled", { options: { thread_name: "A thread" } })),
    );
    expect(titled.kind).toBe("refused");
    expect(titled.message).toMatch(/thread_name opens a thread in a forum channel only/);
    expect(fake.messages(forum.webhook.id)).toHaveLength(0);
    expect(fake.messages(text.webhook.id)).toHaveLength(0);
  });
});

describe("polls", () => {
  it("sends the text as the poll's question, the answers, and the duration in hours", async () => {
    const { webhook, session } = await connected();
    await adapter.publish(
      session,
      rich("Which name?", { poll: { options: ["Aurora", "Borealis"], durationMinutes: 90 } }, [
        fileOf("image/png", "names.png", 1024, "The two names"),
      ]),
    );
    const [message] = fake.messages(webhook.id);
    expect(message).toMatchObject({
      content: "",
      poll: { question: "Which name?", answers: ["Aurora", "Borealis"], hours: 2, multiselect: false },
      attachments: [{ description: "The two names" }],
    });
  });

  it("keeps a text longer than a question as the message, its first line the question; no duration: Discord's day", async () => {
    const { webhook, session } = await connected();
    const text = `Vote for the next feature\n${"Every vote counts. ".repeat(20)}`;
    await adapter.publish(session, rich(text, { poll: { options: ["A", "B"], durationMinutes: null } }));
    const [message] = fake.messages(webhook.id);
    expect(message).toMatchObject({
      content: text,
      poll: { question: "Vote for the next feature", hours: 24 },
    });
  });

  it("rounds the duration to whole hours, within 1 to 768", () => {
    expect([60, 89, 90, 1440, 768 * 60, 800 * 60, 10].map(pollHours)).toEqual([1, 1, 2, 24, 768, 768, 1]);
  });

  it("the fake refuses a poll Discord refuses: a long answer, a duration past 32 days", async () => {
    const { webhook } = await connected();
    const execute = async (poll: unknown) => {
      const response = await fetch(`${webhook.url.replace("/api/", "/api/v10/")}?wait=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ poll }),
      });
      return { status: response.status, body: (await response.json()) as { code: number; errors?: unknown } };
    };
    const question = { text: "Q" };
    const long = await execute({ question, answers: [{ poll_media: { text: "a".repeat(56) } }] });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body.errors)).toContain("answers");
    const tooLong = await execute({ question, answers: [{ poll_media: { text: "a" } }], duration: 769 });
    expect(JSON.stringify(tooLong.body.errors)).toContain("duration");
    expect(fake.messages(webhook.id)).toHaveLength(0);
  });
});

it("no error carries the webhook token", () => {
  network.expectNoSecretInErrors(4, /\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/);
});
