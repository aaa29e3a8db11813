import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";
import { telegramError } from "./errors.ts";

/*
 * The one place that talks HTTP to the Bot API. The bot token is part of every URL
 * (…/bot{token}/{method}), so nothing here lets the URL, or an error that may carry it, escape: thrown
 * errors are built from the failure's code and Telegram's description only, with the token removed.
 */

export interface BotApiConfig {
  /** https://api.telegram.org, or a compatible server (tests: the local fake). */
  apiUrl: string;
  fetch: typeof fetch;
}

/** Parameters as JSON, or a FormData when files are uploaded. */
export type BotApiParams = Record<string, unknown> | FormData;

interface Envelope {
  ok?: unknown;
  result?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

/**
 * Calls one method. `sends` marks methods that post something: when such a request got no answer,
 * the message may exist, so the failure is `unknown` rather than `retry`.
 */
export async function callBotApi(
  config: BotApiConfig,
  token: string,
  method: string,
  params: BotApiParams,
  signal: AbortSignal,
  sends: boolean,
): Promise<unknown> {
  const url = `${config.apiUrl}/bot${token}/${method}`;
  const init: RequestInit =
    params instanceof FormData
      ? { method: "POST", body: params, signal }
      : {
          method: "POST",
          body: JSON.stringify(params),
          headers: { "content-type": "application/json" },
          signal,
        };
  if (signal.aborted)
    throw new NetworkError("telegram", "retry", "The request to Telegram was cancelled before it was sent.");
  let response: Response;
  let text: string;
  try {
    response = await config.fetch(url, init);
    text = await response.text();
  } catch (error) {
    const failure = describeFetchFailure(error, signal);
    if (failure.notSent || !sends) {
      throw new NetworkError("telegram", "retry", `Telegram ${failure.reason}; try again later.`);
    }
    throw new NetworkError(
      "telegram",
      "unknown",
      `Telegram ${failure.reason} after the message was sent, so it may have been posted: check the chat before posting again.`,
    );
  }
  const body = parseEnvelope(text);
  if (body?.ok === true) return body.result;
  if (!body || typeof body.description !== "string") {
    if (response.status >= 500 || response.status === 429) {
      throw new NetworkError(
        "telegram",
        "retry",
        `Telegram answered ${response.status} without a Bot API answer; try again later.`,
        {
          status: response.status,
        },
      );
    }
    const kind = sends && response.ok ? "unknown" : "refused";
    throw new NetworkError(
      "telegram",
      kind,
      `Telegram answered ${response.status} with something that is not a Bot API answer.`,
      {
        status: response.status,
      },
    );
  }
  const code = typeof body.error_code === "number" ? body.error_code : response.status;
  const retryAfter = body.parameters?.retry_after;
  throw telegramError(
    code,
    body.description.replaceAll(token, "…"),
    typeof retryAfter === "number" ? retryAfter : undefined,
  );
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Envelope) : null;
  } catch {
    return null;
  }
}
