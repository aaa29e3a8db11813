import { NETWORK_RULES, type PublishInput, THREAD_KEYS } from "@socialpub/core";
import { beforeAll, describe, expect, it } from "vitest";
import { pollQuestion } from "../../src/common/poll-question.ts";
import { telegramAdapter } from "../../src/index.ts";
import { TelegramFake } from "../../src/telegram/fake/server.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { losingFetch } from "../helpers/losing-fetch.ts";
import { contextOf, fileOf, postOf, sessionOf } from "../helpers/session.ts";
import { withSteps } from "../helpers/steps.ts";

// Rich posts on Telegram: albums, threads as replies, polls, first comments and the per-network options.
const network = fakeNetwork(() => TelegramFake.start(), 60_000);
const failure = network.failure;
let fake: TelegramFake;
let adapter: ReturnType<typeof telegramAdapter>;
let channels = 0;

beforeAll(() => {
  fake = network.fake;
  adapter = telegramAdapter({ apiUrl: fake.url });
});

/** A new public channel with a bot allowed to post, connected. */
async function connected(type: "channel" | "supergroup" = "channel") {
  channels += 1;
  const username = `rich_${type}_${channels}`;
  const bot = fake.addBot({ username: `rich_bot_${channels}` });
  network.secret(bot.token);
  const chat = fake.addChat({ type, title: "Rich", username });
  fake.setMember(chat.id, bot.id, "administrator", { canPost: true });
  const account = await adapter.connect({ bot_token: bot.token, chat: `@${username}` }, contextOf());
  return { bot, chat, username, session: sessionOf(account.credentials, account.handle) };
}

const rich = (text: string, extra: Partial<PublishInput>, media = [] as ReturnType<typeof fileOf>[]) => ({
  ...postOf(text, media),
  ...extra,
});

describe("threads", () => {
  it("sends each part as a reply to the one before, an album replying as a whole, and lists every part", async () => {
    const { chat, username, session } = await connected();
    const post = withSteps(
      rich("Release 2.0, a thread", {
        thread: [
          {
            text: "What changed, in pictures",
            media: [fileOf("image/png", "a.png"), fileOf("video/mp4", "b.mp4")],
          },
          { text: "Upgrade notes", media: [] },
        ],
      }),
    );
    const published = await adapter.publish(session, post.post);
    // The album is messages 2 and 3; the last part replies to the album's first message.
    expect(published).toEqual({
      id: "1",
      permalink: `https://t.me/${username}/1`,
      parts: [
        { id: "1", permalink: `https://t.me/${username}/1` },
        { id: "2", permalink: `https://t.me/${username}/2` },
        { id: "4", permalink: `https://t.me/${username}/4` },
      ],
    });
    expect(fake.messages(chat.id).map((m) => [m.messageId, m.text ?? m.caption, m.replyTo])).toEqual([
      [1, "Release 2.0, a thread", undefined],
      [2, "What changed, in pictures", 1],
      [3, undefined, 1],
      [4, "Upgrade notes", 2],
    ]);
    expect(fake.requests.slice(-3).map((r) => r.method)).toEqual([
      "sendMessage",
      "sendMediaGroup",
      "sendMessage",
    ]);
    // Each part's outcome was saved as it went, so a retry can continue from the first not sent.
    expect(JSON.parse(String(post.last?.[THREAD_KEYS.sent]))).toHaveLength(3);
  });

  it("continues a thread from the first part not published, never sending one twice", async () => {
    const { chat, session } = await connected();
    const lossy = losingFetch();
    const flaky = telegramAdapter({ apiUrl: fake.url, fetch: lossy.fetch });
    const post = withSteps(
      rich("one", {
        thread: [
          { text: "two", media: [] },
          { text: "three", media: [] },
        ],
      }),
    );
    // The third message never leaves (the connection is refused): a retry naming the part.
    let sends = 0;
    const cut = telegramAdapter({
      apiUrl: fake.url,
      fetch: async (input, init) => {
        sends += 1;
        if (sends === 3) throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
        return fetch(input, init);
      },
    });
    const stopped = await failure(() => cut.publish(session, post.post));
    expect(stopped.kind).toBe("retry");
    expect(stopped.message).toMatch(/^part 3 of 3: /);
    expect(fake.messages(chat.id).map((m) => m.text)).toEqual(["one", "two"]);
    const resumed = await flaky.publish(session, post.resumed());
    expect(lossy.requests).toHaveLength(1);
    expect(fake.messages(chat.id).map((m) => [m.text, m.replyTo])).toEqual([
      ["one", undefined],
      ["two", 1],
      ["three", 2],
    ]);
    expect(resumed.parts?.map((p) => p.id)).toEqual(["1", "2", "3"]);
  });

  it("fails a part whose answer never came as outcome unknown, and does not send it again", async () => {
    const { chat, session } = await connected();
    const lossy = losingFetch();
    const flaky = telegramAdapter({ apiUrl: fake.url, fetch: lossy.fetch });
    const post = withSteps(rich("first", { thread: [{ text: "second", media: [] }] }));
    lossy.loseNext(/sendMessage/);
    const lost = await failure(() => flaky.publish(session, post.post));
    expect(lost.kind).toBe("unknown");
    expect(lost.message).toMatch(/^part 1 of 2: .*may have been posted/);
    expect(fake.messages(chat.id)).toHaveLength(1);
    const before = lossy.requests.length;
    const again = await failure(() => flaky.publish(session, post.resumed()));
    expect(again.kind).toBe("unknown");
    expect(again.message).toMatch(
      /part 1 of 2: the outcome of sending it is unknown and telegram gives no way to check/,
    );
    expect(lossy.requests.length).toBe(before);
    expect(fake.messages(chat.id)).toHaveLength(1);
  });

  it("refuses, before sending anything, a thread whose later part Telegram could not take", async () => {
    const { session } = await connected();
    const before = fake.requests.length;
    const pdf = await failure(() =>
      adapter.publish(
        session,
        rich("ok", { thread: [{ text: "a document", media: [fileOf("application/pdf", "spec.pdf")] }] }),
      ),
    );
    expect(pdf.kind).toBe("refused");
    expect(pdf.message).toMatch(/spec\.pdf is application\/pdf; Telegram .* photos and videos only/);
    expect(fake.requests.length).toBe(before);
  });
});

describe("first comment", () => {
  it("replies to the first part, after the thread's last part", async () => {
    const { chat, username, session } = await connected();
    const published = await adapter.publish(
      session,
      rich("The release", {
        thread: [{ text: "Details", media: [] }],
        firstComment: "Download: https://example.com",
      }),
    );
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: `https://t.me/${username}/3`,
      error: null,
    });
    expect(fake.messages(chat.id).map((m) => [m.text, m.replyTo])).toEqual([
      ["The release", undefined],
      ["Details", 1],
      ["Download: https://example.com", 1],
    ]);
  });

  it("goes under a single message too; one Telegram refuses leaves the post published and says why", async () => {
    const { chat, session } = await connected();
    const published = await adapter.publish(
      session,
      rich("A photo", { firstComment: "x".repeat(4097) }, [fileOf("image/jpeg", "p.jpg")]),
    );
    expect(published.id).toBe("1");
    expect(published.parts).toBeUndefined();
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment?.error).toMatch(/too long for Telegram.*message is too long/);
    expect(fake.messages(chat.id)).toHaveLength(1);
  });
});

describe("polls", () => {
  it("sends the text as the poll's question with its options and open_period", async () => {
    const { chat, username, session } = await connected();
    const published = await adapter.publish(
      session,
      rich("Which release name?", {
        poll: { options: ["Aurora", "Borealis", "Comet"], durationMinutes: 10 },
      }),
    );
    expect(published).toEqual({ id: "1", permalink: `https://t.me/${username}/1` });
    expect(fake.requests.at(-1)?.method).toBe("sendPoll");
    expect(fake.messages(chat.id)[0]?.poll).toEqual({
      id: expect.any(String),
      question: "Which release name?",
      options: ["Aurora", "Borealis", "Comet"],
      isAnonymous: true,
      openPeriod: 600,
    });
  });

  it("leaves a poll without a duration open, and carries a day as Telegram documents open_period", async () => {
    const { chat, session } = await connected("supergroup");
    await adapter.publish(
      session,
      rich("Open question", { poll: { options: ["Yes", "No"], durationMinutes: null } }),
    );
    await adapter.publish(
      session,
      rich("A day", { poll: { options: ["Yes", "No"], durationMinutes: 1440 } }),
    );
    const [open, day] = fake.messages(chat.id);
    expect(open?.poll?.openPeriod).toBeUndefined();
    expect(day?.poll?.openPeriod).toBe(86_400);
    expect(NETWORK_RULES.telegram.carries.poll?.maxMinutes).toBe(2_628_000 / 60);
  });

  it("sends a text too long for a question first, the poll replying to it, and resumes with the poll alone", async () => {
    const { chat, session } = await connected();
    const text = `Pick the next feature.\n${"We weigh every request from the community. ".repeat(10)}`;
    let polls = 0;
    const failingPoll = telegramAdapter({
      apiUrl: fake.url,
      fetch: async (input, init) => {
        if (String(input).endsWith("/sendPoll") && polls++ === 0) {
          return Response.json(
            { ok: false, error_code: 500, description: "Internal Server Error" },
            { status: 500 },
          );
        }
        return fetch(input, init);
      },
    });
    const post = withSteps(rich(text, { poll: { options: ["Threads", "Polls"], durationMinutes: 60 } }));
    const first = await failure(() => failingPoll.publish(session, post.post));
    expect(first.kind).toBe("retry");
    expect(fake.messages(chat.id).map((m) => m.text)).toEqual([text]);
    const published = await failingPoll.publish(session, post.resumed());
    expect(published.id).toBe("1");
    const messages = fake.messages(chat.id);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({
      replyTo: 1,
      poll: { question: "Pick the next feature.", openPeriod: 3600 },
    });
  });

  it("cuts a long first line into a question of at most 300 characters at a word", () => {
    const question = pollQuestion(`${"word ".repeat(100)}\nmore`, 300);
    expect([...question].length).toBeLessThanOrEqual(300);
    expect(question).toMatch(/word…$/);
    expect(pollQuestion("  Short one  \nrest", 300)).toBe("Short one");
  });

  it("replies to the poll with the next part and the first comment", async () => {
    const { chat, session } = await connected();
    await adapter.publish(
      session,
      rich("Vote", {
        poll: { options: ["A", "B"], durationMinutes: 5 },
        thread: [{ text: "Why we ask", media: [] }],
        firstComment: "Results on Friday",
      }),
    );
    expect(fake.messages(chat.id).map((m) => [m.poll ? "poll" : m.text, m.replyTo])).toEqual([
      ["poll", undefined],
      ["Why we ask", 1],
      ["Results on Friday", 1],
    ]);
  });

  it("refuses a poll with media or without a question before sending", async () => {
    const { session } = await connected();
    const before = fake.requests.length;
    const poll = { options: ["A", "B"], durationMinutes: 5 };
    const withMedia = await failure(() =>
      adapter.publish(session, rich("Q", { poll }, [fileOf("image/png", "p.png")])),
    );
    expect(withMedia.message).toMatch(/poll .* carries no media/);
    const empty = await failure(() => adapter.publish(session, rich(" ", { poll })));
    expect(empty.message).toMatch(/needs a question/);
    expect(fake.requests.length).toBe(before);
  });
});

describe("options", () => {
  it("sends every message of the post silently and protected when options.telegram asks", async () => {
    const { chat, session } = await connected();
    await adapter.publish(
      session,
      rich(
        "Quiet",
        {
          options: { silent: true, protect_content: true },
          thread: [{ text: "album", media: [fileOf("image/png", "1.png"), fileOf("image/png", "2.png")] }],
          firstComment: "comment",
        },
        [fileOf("image/jpeg", "p.jpg")],
      ),
    );
    const messages = fake.messages(chat.id);
    expect(messages).toHaveLength(4);
    for (const m of messages) expect(m).toMatchObject({ silent: true, protected: true });
    await adapter.publish(session, rich("Loud", {}));
    expect(fake.messages(chat.id).at(-1)).not.toHaveProperty("silent");
  });
});

describe("the fake refuses what Telegram refuses", () => {
  async function call(token: string, method: string, params: Record<string, unknown>) {
    const response = await fetch(`${fake.url}/bot${token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    return (await response.json()) as { ok: boolean; description?: string };
  }

  it("a reply to a missing message, a poll out of bounds, a named poll in a channel", async () => {
    const { bot, chat } = await connected();
    const options = [{ text: "A" }, { text: "B" }];
    const said = async (method: string, params: Record<string, unknown>) =>
      (await call(bot.token, method, { chat_id: chat.id, ...params })).description;
    expect(await said("sendMessage", { text: "x", reply_parameters: { message_id: 99 } })).toBe(
      "Bad Request: message to be replied not found",
    );
    expect(
      await said("sendMessage", {
        text: "x",
        reply_parameters: { message_id: 99, allow_sending_without_reply: true },
      }),
    ).toBeUndefined();
    expect(await said("sendPoll", { question: "q".repeat(301), options })).toMatch(/question length/);
    expect(await said("sendPoll", { question: "q", options: [] })).toMatch(/at least 1 option/);
    expect(await said("sendPoll", { question: "q", options, open_period: 2_628_001 })).toMatch(/open period/);
    expect(await said("sendPoll", { question: "q", options, is_anonymous: false })).toMatch(
      /non-anonymous polls can't be sent to channel chats/,
    );
  });
});

it("no error carries the bot token", () => {
  network.expectNoSecretInErrors(5, /\/bot\d+:/);
});
