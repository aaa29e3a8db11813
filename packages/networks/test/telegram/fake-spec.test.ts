import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TelegramFake } from "../../src/telegram/fake/server.ts";
import { TelegramSpecCheck } from "../../src/telegram/fake/spec-check.ts";

// The check the fake runs on its traffic catches drift: a parameter or field the Bot API does not
// document, a missing required one, a value of the wrong type.
describe("the Telegram fake's Bot API check", () => {
  const check = TelegramSpecCheck.load();

  it("reads the scraped Bot API description", () => {
    expect(check.version).toMatch(/^Bot API \d+\.\d+/);
    expect(check.hasMethod("sendMediaGroup")).toBe(true);
  });

  it("accepts documented requests, as JSON and as form fields", () => {
    expect(check.request("sendMessage", { chat_id: -100123, text: "hi" }, new Set(), false)).toEqual([]);
    expect(
      check.request("sendPhoto", { chat_id: "-100123", caption: "c" }, new Set(["photo"]), true),
    ).toEqual([]);
    const media = JSON.stringify([
      { type: "photo", media: "attach://file0", caption: "c" },
      { type: "video", media: "attach://file1", supports_streaming: true },
    ]);
    expect(
      check.request("sendMediaGroup", { chat_id: "@chan", media }, new Set(["file0", "file1"]), true),
    ).toEqual([]);
  });

  it("flags undocumented parameters, missing required ones, wrong types and stray files", () => {
    expect(check.request("sendMessage", { chat_id: 1, text: "hi", colour: "red" }, new Set(), false)).toEqual(
      ["sendMessage: colour is not a parameter of sendMessage"],
    );
    expect(check.request("sendMessage", { chat_id: 1 }, new Set(), false)).toEqual([
      "sendMessage: required parameter text is missing",
    ]);
    expect(
      check.request(
        "sendMessage",
        { chat_id: 1, text: "x", disable_notification: "maybe" },
        new Set(),
        true,
      )[0],
    ).toMatch(/disable_notification: not a Boolean/);
    const media = JSON.stringify([{ type: "photo", media: "attach://file0", alt: "x" }]);
    expect(
      check.request("sendMediaGroup", { chat_id: 1, media }, new Set(["file0", "file9"]), true).join("\n"),
    ).toMatch(/alt is not a field of InputMediaPhoto[\s\S]*uploaded file file9 is neither/);
    expect(check.request("sendPost", {}, new Set(), false)).toEqual([
      `sendPost: no such method in Bot API ${check.version}`,
    ]);
  });

  it("flags answers that stray from the documented types", () => {
    const chat = { id: -100123, type: "channel", title: "t" };
    expect(check.answer("sendMessage", { ok: true, result: { message_id: 1, date: 1, chat } })).toEqual([]);
    expect(check.answer("sendMessage", { ok: true, result: { message_id: 1, chat } })[0]).toMatch(
      /requires date/,
    );
    expect(
      check.answer("sendMessage", { ok: true, result: { message_id: 1, date: 1, chat, views: 3 } })[0],
    ).toMatch(/views is not a field of Message/);
    expect(check.answer("getChatMemberCount", { ok: true, result: "12" })[0]).toMatch(/not an Integer/);
    expect(
      check.answer("sendMessage", {
        ok: false,
        error_code: 429,
        description: "x",
        parameters: { retry_after: 3 },
      }),
    ).toEqual([]);
    expect(check.answer("sendMessage", { ok: false, description: "x" })).toEqual([
      "sendMessage: error answer without error_code",
    ]);
  });
});

describe("the Telegram fake", () => {
  let fake: TelegramFake;
  beforeAll(async () => {
    fake = await TelegramFake.start();
  });
  afterAll(() => fake.close());

  it("records a request that strays from the Bot API, and answers as Telegram does", async () => {
    const bot = fake.addBot({ username: "drift_bot" });
    const response = await fetch(`${fake.url}/bot${bot.token}/getMe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ verbose: true }),
    });
    expect(await response.json()).toMatchObject({
      ok: true,
      result: { id: bot.id, is_bot: true, username: "drift_bot" },
    });
    expect(fake.specViolations).toEqual(["request getMe: verbose is not a parameter of getMe"]);
    expect(() => fake.assertSpecCompliant()).toThrow(/strays from telegram-bot-api.json/);
    fake.specViolations.length = 0;
  });

  it("answers an unknown token 401 and a malformed path 404, in the Bot API's error shape", async () => {
    const unknown = await fetch(`${fake.url}/bot123:${"A".repeat(35)}/getMe`);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
    const malformed = await fetch(`${fake.url}/botnothing/getMe`);
    expect(malformed.status).toBe(404);
    expect(fake.specViolations).toEqual([]);
  });
});
