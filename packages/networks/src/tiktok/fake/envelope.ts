import { randomBytes } from "node:crypto";
import type { FakeAnswer } from "../../common/fake-server.ts";

/* TikTok's answer envelope: `{data, error: {code, message, log_id}}`, with code "ok" on success. */

export function ok(data: unknown): FakeAnswer {
  return { status: 200, json: { data, error: { code: "ok", message: "", log_id: logId() } } };
}

export function tiktokError(status: number, code: string, message: string): FakeAnswer {
  return { status, json: { data: {}, error: { code, message, log_id: logId() } } };
}

const logId = () => `2026112410${randomBytes(11).toString("hex").toUpperCase()}`;
