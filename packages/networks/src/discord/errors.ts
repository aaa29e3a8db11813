import { NetworkError } from "@socialpub/core";

/*
 * What a Discord error answer means for socialpub. Discord answers {code, message} and, for an invalid
 * body (50035), a tree of errors per field whose leaves are {_errors:[{code, message}]}: those leaves
 * are quoted with their field's path, which is what a user needs to fix the post.
 */

interface ErrorBody {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** "content: Must be 2000 or fewer in length." for each leaf of a 50035 errors tree. */
export function fieldErrors(tree: unknown, path: string[] = []): string[] {
  if (typeof tree !== "object" || tree === null) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    if (key === "_errors" && Array.isArray(value)) {
      for (const e of value) {
        const message = typeof e?.message === "string" ? e.message : String(e?.code ?? "invalid");
        out.push(path.length > 0 ? `${path.join(".")}: ${message}` : message);
      }
    } else {
      out.push(...fieldErrors(value, [...path, key]));
    }
  }
  return out;
}

export function discordError(status: number, body: ErrorBody | null): NetworkError {
  const code = typeof body?.code === "number" ? body.code : undefined;
  const text = typeof body?.message === "string" ? body.message : "";
  const said = `(Discord said: ${status}${code !== undefined ? ` ${code}` : ""}${text ? ` ${text}` : ""})`;
  if (status === 401 || status === 404) {
    return new NetworkError(
      "discord",
      "reauth",
      `Discord no longer accepts this webhook: it was deleted or its URL changed. Create a webhook in the channel's settings (Integrations → Webhooks) and connect again with its URL ${said}.`,
      { status },
    );
  }
  if (status === 403) {
    return new NetworkError(
      "discord",
      "reauth",
      `Discord does not let this webhook post: check the webhook and its channel's permissions, then connect again ${said}.`,
      { status },
    );
  }
  if (status === 400 && code === 50035) {
    const fields = fieldErrors(body?.errors);
    return new NetworkError(
      "discord",
      "refused",
      `Discord refused the message: ${fields.length > 0 ? fields.join("; ") : text || "invalid form body"} ${said}.`,
      { status },
    );
  }
  if (status === 400 && code === 220001) {
    return new NetworkError(
      "discord",
      "refused",
      `This webhook posts to a forum channel, where every post opens a thread: give the post's thread a title in options.discord.thread_name ${said}.`,
      { status },
    );
  }
  if (status === 400 && code === 220003) {
    return new NetworkError(
      "discord",
      "refused",
      `options.discord.thread_name opens a thread in a forum channel only, and this webhook posts to another kind of channel: remove thread_name, or connect a forum channel's webhook ${said}.`,
      { status },
    );
  }
  if (status === 400 && code === 10003) {
    return new NetworkError(
      "discord",
      "refused",
      `The forum thread this post's first message opened no longer exists (it was deleted), so the rest of the post cannot follow it ${said}.`,
      { status },
    );
  }
  if (status === 413) {
    return new NetworkError(
      "discord",
      "refused",
      `The files are too large for a Discord webhook: at most 10 MB each ${said}.`,
      {
        status,
      },
    );
  }
  if (status >= 500) {
    return new NetworkError("discord", "retry", `Discord failed to answer; try again later ${said}.`, {
      status,
    });
  }
  return new NetworkError("discord", "refused", `Discord refused the message ${said}.`, { status });
}
