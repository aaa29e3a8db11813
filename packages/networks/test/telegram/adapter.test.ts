import { beforeAll, describe, expect, it } from "vitest";
import { telegramAdapter } from "../../src/index.ts";
import { TelegramFake } from "../../src/telegram/fake/server.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { contextOf, fileOf, postOf, sessionOf } from "../helpers/session.ts";
import { startSilentServer } from "../helpers/silent-server.ts";

const network = fakeNetwork(() => TelegramFake.start(), 60_000);
const failure = network.failure;
let fake: TelegramFake;
let adapter: ReturnType<typeof telegramAdapter>;

function newBot(username = "socialpub_bot") {
  const bot = fake.addBot({ username });
  network.secret(bot.token);
  return bot;
}

/** A public channel (@username) where a new bot is an administrator allowed to post. */
function publicChannel(username = "socialpub_news", memberCount = 1234) {
  const bot = newBot();
  const chat = fake.addChat({ type: "channel", title: "Socialpub News", username, memberCount });
  fake.setMember(chat.id, bot.id, "administrator", { canPost: true });
  return { bot, chat };
}

const context = () => contextOf();

beforeAll(() => {
  fake = network.fake;
  adapter = telegramAdapter({ apiUrl: fake.url });
});

describe("connect", () => {
  it("checks the token and the chat, and reads the handle and subscriber count", async () => {
    const { bot, chat } = publicChannel("release_notes", 4321);
    const account = await adapter.connect({ bot_token: bot.token, chat: "@release_notes" }, context());
    expect(account).toEqual({
      handle: "@release_notes",
      followers: 4321,
      health: "healthy",
      credentials: { bot_token: bot.token, chat_id: chat.id, chat_username: "release_notes" },
    });
    expect(fake.requests.slice(-4).map((r) => r.method)).toEqual([
      "getMe",
      "getChat",
      "getChatMember",
      "getChatMemberCount",
    ]);
  });

  it("takes a private channel by its numeric id and names it by its title", async () => {
    const bot = newBot();
    const chat = fake.addChat({ type: "channel", title: "Team updates", memberCount: 12 });
    fake.setMember(chat.id, bot.id, "creator");
    const account = await adapter.connect({ bot_token: bot.token, chat: String(chat.id) }, context());
    expect(account.handle).toBe("Team updates");
    expect(account.credentials.chat_id).toBe(chat.id);
    expect(account.credentials.chat_username).toBeNull();
  });

  it("says the token is revoked in words a user can act on (reauth)", async () => {
    const { bot } = publicChannel("revoked_case");
    fake.revokeToken(bot.token);
    const error = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "@revoked_case" }, context()),
    );
    expect(error.kind).toBe("reauth");
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/@BotFather/);
    expect(error.message).toContain("Unauthorized");
  });

  it("refuses a malformed token or chat without asking Telegram", async () => {
    const before = fake.requests.length;
    const badToken = await failure(() =>
      adapter.connect({ bot_token: "not-a-token", chat: "@x_channel" }, context()),
    );
    expect(badToken.kind).toBe("refused");
    expect(badToken.message).toMatch(/bot_token/);
    const { bot } = publicChannel("chat_shape");
    const badChat = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "#general" }, context()),
    );
    expect(badChat.kind).toBe("refused");
    expect(badChat.message).toMatch(/chat must be/);
    expect(fake.requests.length).toBe(before);
  });

  it("says the chat is not found", async () => {
    const bot = newBot();
    const error = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "@nobody_here" }, context()),
    );
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/does not know this chat/);
    expect(error.message).toContain("chat not found");
  });

  it("says when the bot may not post: not a member, an administrator without 'Post messages'", async () => {
    const bot = newBot("lonely_bot");
    const chat = fake.addChat({ type: "channel", title: "Public", username: "public_channel" });
    const notMember = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "@public_channel" }, context()),
    );
    expect(notMember.kind).toBe("refused");
    expect(notMember.message).toMatch(
      /@lonely_bot is not a member of this channel: add it as an administrator/,
    );
    fake.setMember(chat.id, bot.id, "administrator", { canPost: false });
    const noRight = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "@public_channel" }, context()),
    );
    expect(noRight.message).toMatch(/without the right to post messages.*Post messages/);
  });

  it("takes a supergroup the bot is a member of, and refuses it while the bot is restricted", async () => {
    const bot = newBot("group_bot");
    const group = fake.addChat({
      type: "supergroup",
      title: "Builders",
      username: "builders_chat",
      memberCount: 310,
    });
    fake.setMember(group.id, bot.id, "restricted");
    const restricted = await failure(() =>
      adapter.connect({ bot_token: bot.token, chat: "@builders_chat" }, context()),
    );
    expect(restricted.message).toMatch(/@group_bot is restricted in this group and may not send messages/);
    fake.setMember(group.id, bot.id, "member");
    const account = await adapter.connect({ bot_token: bot.token, chat: "@builders_chat" }, context());
    expect(account).toMatchObject({ handle: "@builders_chat", followers: 310 });
  });

  it("refuses basic groups (their messages have no links) and private chats", async () => {
    const bot = newBot();
    const group = fake.addChat({ type: "group", title: "Old group" });
    fake.setMember(group.id, bot.id, "member");
    const basic = await failure(() => adapter.connect({ bot_token: bot.token, chat: group.id }, context()));
    expect(basic.message).toMatch(/basic group.*supergroup/);
    const person = fake.addChat({ type: "private", title: "Ada" });
    fake.setMember(person.id, bot.id, "member");
    const dm = await failure(() => adapter.connect({ bot_token: bot.token, chat: person.id }, context()));
    expect(dm.message).toMatch(/private chat/);
  });

  it("says Telegram is unreachable as a retry (the service answers 502)", async () => {
    const closed = await TelegramFake.start({ checkSpec: false });
    const url = closed.url;
    await closed.close();
    const { bot } = publicChannel("unreachable");
    const error = await failure(() =>
      telegramAdapter({ apiUrl: url }).connect({ bot_token: bot.token, chat: "@unreachable" }, context()),
    );
    expect(error.kind).toBe("retry");
    expect(error.message).toMatch(/refused the connection/);
  });
});

describe("publish", () => {
  async function connected(username?: string) {
    const { bot, chat } = username ? publicChannel(username) : privateChannel();
    const account = await adapter.connect(
      { bot_token: bot.token, chat: username ? `@${username}` : chat.id },
      context(),
    );
    return { bot, chat, session: sessionOf(account.credentials, account.handle) };
  }

  function privateChannel() {
    const bot = newBot();
    const chat = fake.addChat({ type: "channel", title: "Private" });
    fake.setMember(chat.id, bot.id, "administrator", { canPost: true });
    return { bot, chat };
  }

  it("sends text with sendMessage and links it publicly by username", async () => {
    const { chat, session } = await connected("text_channel");
    const published = await adapter.publish(session, postOf("Release 1.2 is out: https://example.com/1.2"));
    expect(published).toEqual({ id: "1", permalink: "https://t.me/text_channel/1" });
    expect(fake.messages(chat.id)).toMatchObject([
      { messageId: 1, text: "Release 1.2 is out: https://example.com/1.2" },
    ]);
  });

  it("links a private channel's message as t.me/c/{id without -100}", async () => {
    const { chat, session } = await connected();
    await adapter.publish(session, postOf("first"));
    const second = await adapter.publish(session, postOf("second"));
    expect(String(chat.id)).toMatch(/^-100\d+$/);
    expect(second.permalink).toBe(`https://t.me/c/${String(chat.id).slice(4)}/2`);
  });

  it("uploads a photo with its caption (sendPhoto, multipart)", async () => {
    const { chat, session } = await connected("photo_channel");
    const published = await adapter.publish(
      session,
      postOf("A photo", [fileOf("image/jpeg", "shot.jpg", 5000)]),
    );
    expect(published.permalink).toBe("https://t.me/photo_channel/1");
    expect(fake.messages(chat.id)).toMatchObject([
      {
        caption: "A photo",
        file: { kind: "photo", name: "shot.jpg", contentType: "image/jpeg", size: 5000 },
      },
    ]);
    expect(fake.requests.at(-1)?.method).toBe("sendPhoto");
  });

  it("uploads a video (sendVideo)", async () => {
    const { chat, session } = await connected("video_channel");
    await adapter.publish(session, postOf("A clip", [fileOf("video/mp4", "clip.mp4", 9000)]));
    expect(fake.messages(chat.id)).toMatchObject([
      { caption: "A clip", file: { kind: "video", name: "clip.mp4", size: 9000 } },
    ]);
    expect(fake.requests.at(-1)?.method).toBe("sendVideo");
  });

  it("sends a GIF as an animation (sendAnimation)", async () => {
    const { chat, session } = await connected("gif_channel");
    await adapter.publish(session, postOf("It moves", [fileOf("image/gif", "loop.gif", 3000)]));
    expect(fake.messages(chat.id)).toMatchObject([
      { caption: "It moves", file: { kind: "animation", name: "loop.gif" } },
    ]);
    expect(fake.requests.at(-1)?.method).toBe("sendAnimation");
  });

  it("sends 2–10 files as one album (sendMediaGroup), the caption on the first", async () => {
    const { chat, session } = await connected("album_channel");
    const media = [
      fileOf("image/png", "a.png"),
      fileOf("image/webp", "b.webp"),
      fileOf("video/mp4", "c.mp4"),
    ];
    const published = await adapter.publish(session, postOf("Three things", media));
    expect(published).toEqual({ id: "1", permalink: "https://t.me/album_channel/1" });
    const messages = fake.messages(chat.id);
    expect(messages.map((m) => [m.file?.name, m.file?.kind, m.caption])).toEqual([
      ["a.png", "photo", "Three things"],
      ["b.webp", "photo", undefined],
      ["c.mp4", "video", undefined],
    ]);
    expect(new Set(messages.map((m) => m.mediaGroupId)).size).toBe(1);
  });

  it("refuses more than 10 files, and files that are neither photos nor videos, before sending", async () => {
    const { session } = await connected("too_many");
    const before = fake.requests.length;
    const many = Array.from({ length: 11 }, (_, i) => fileOf("image/png", `${i}.png`));
    expect((await failure(() => adapter.publish(session, postOf("x", many)))).message).toMatch(/at most 10/);
    const pdf = await failure(() =>
      adapter.publish(session, postOf("x", [fileOf("application/pdf", "doc.pdf")])),
    );
    expect(pdf.kind).toBe("refused");
    expect(pdf.message).toMatch(/photos and videos only/);
    expect(fake.requests.length).toBe(before);
  });

  it("keeps the caption limit with media (1024) and the text limit without (4096)", async () => {
    const { chat, session } = await connected("limits_channel");
    const photo = [fileOf("image/png", "p.png")];
    await adapter.publish(session, postOf("é".repeat(1024), photo));
    const long = await failure(() => adapter.publish(session, postOf("é".repeat(1025), photo)));
    expect(long.kind).toBe("refused");
    expect(long.status).toBe(400);
    expect(long.message).toMatch(/1024 as the caption/);
    expect(long.message).toContain("message caption is too long");
    await adapter.publish(session, postOf("x".repeat(4096)));
    const text = await failure(() => adapter.publish(session, postOf("x".repeat(4097))));
    expect(text.message).toContain("message is too long");
    expect(fake.messages(chat.id)).toHaveLength(2);
  });

  it("honours a 429's retry_after: the failure carries it, and the next send waits it out", async () => {
    const { chat, session } = await connected("flood_channel");
    fake.floodWait(chat.id, 1);
    const flooded = await failure(() => adapter.publish(session, postOf("too soon")));
    expect(flooded.kind).toBe("retry");
    expect(flooded.retryAfterMs).toBe(1000);
    const refusedAt = fake.requests.at(-1)!.at;
    const published = await adapter.publish(session, postOf("after the wait"));
    expect(published.id).toBe("1");
    const sends = fake.requests.filter((r) => r.method === "sendMessage" && r.at >= refusedAt);
    expect(sends.map((r) => r.status)).toEqual([429, 200]);
    expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("gives up waiting when the service cancels, as a retry that sent nothing", async () => {
    const { chat, session } = await connected("cancel_channel");
    fake.floodWait(chat.id, 1);
    await failure(() => adapter.publish(session, postOf("flooded")));
    const before = fake.requests.length;
    const cancelled = await failure(() =>
      adapter.publish(session, postOf("waiting", [], AbortSignal.timeout(100))),
    );
    expect(cancelled.kind).toBe("retry");
    expect(cancelled.retryAfterMs).toBeGreaterThan(0);
    const already = AbortSignal.abort();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const aborted = await failure(() => adapter.publish(session, postOf("never sent", [], already)));
    expect(aborted.kind).toBe("retry");
    expect(aborted.message).toMatch(/cancelled before it was sent/);
    expect(fake.requests.length).toBe(before);
  });

  it("hands a long flood wait back as a retry without sending", async () => {
    const { chat, session } = await connected("long_flood");
    fake.floodWait(chat.id, 30);
    expect((await failure(() => adapter.publish(session, postOf("one")))).retryAfterMs).toBe(30_000);
    const before = fake.requests.length;
    const again = await failure(() => adapter.publish(session, postOf("two")));
    expect(again.kind).toBe("retry");
    expect(again.retryAfterMs).toBeGreaterThan(25_000);
    expect(fake.requests.length).toBe(before);
  });

  it("meets Telegram's 20 messages a minute in a group: the 21st is a retry about a minute later", async () => {
    const bot = newBot();
    const group = fake.addChat({ type: "supergroup", title: "Busy", username: "busy_group" });
    fake.setMember(group.id, bot.id, "administrator");
    const account = await adapter.connect({ bot_token: bot.token, chat: "@busy_group" }, context());
    const session = sessionOf(account.credentials);
    for (let i = 1; i <= 20; i++) await adapter.publish(session, postOf(`update ${i}`));
    const limited = await failure(() => adapter.publish(session, postOf("update 21")));
    expect(limited.kind).toBe("retry");
    expect(limited.retryAfterMs).toBeGreaterThan(50_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(fake.messages(group.id)).toHaveLength(20);
  });

  it("classifies a kicked bot and a revoked token as reauth", async () => {
    const { bot, chat, session } = await connected("kick_channel");
    fake.setMember(chat.id, bot.id, "kicked");
    const kicked = await failure(() => adapter.publish(session, postOf("hello")));
    expect(kicked.kind).toBe("reauth");
    expect(kicked.status).toBe(403);
    expect(kicked.message).toContain("bot was kicked from the channel chat");
    fake.setMember(chat.id, bot.id, "administrator", { canPost: false });
    expect((await failure(() => adapter.publish(session, postOf("hello")))).kind).toBe("reauth");
    fake.revokeToken(bot.token);
    const revoked = await failure(() => adapter.publish(session, postOf("hello")));
    expect(revoked.kind).toBe("reauth");
    expect(revoked.status).toBe(401);
  });

  it("reports a send that got no answer as unknown (it may have posted), a connect as retry", async () => {
    const silent = await startSilentServer();
    try {
      const quiet = telegramAdapter({ apiUrl: silent.url });
      const { bot, chat } = publicChannel("silent_channel");
      const session = sessionOf({ bot_token: bot.token, chat_id: chat.id, chat_username: "silent_channel" });
      const sent = await failure(() => quiet.publish(session, postOf("hello", [], AbortSignal.timeout(300))));
      expect(sent.kind).toBe("unknown");
      expect(sent.message).toMatch(/may have been posted/);
      const check = await failure(() =>
        quiet.connect({ bot_token: bot.token, chat: "@silent_channel" }, contextOf(AbortSignal.timeout(300))),
      );
      expect(check.kind).toBe("retry");
    } finally {
      await silent.close();
    }
  });

  it("has no readMetrics or findPublished: the Bot API gives bots neither", () => {
    expect(adapter.readMetrics).toBeUndefined();
    expect(adapter.findPublished).toBeUndefined();
    expect(adapter.rule.textLimitWithMedia).toBe(1024);
  });
});

// Runs last: every error the tests above provoked (refusals, reauth, retries, unknown outcomes).
it("no error carries the bot token: not in its message, stack, cause or fields", () => {
  network.expectNoSecretInErrors(10, /\/bot\d+:/);
});
