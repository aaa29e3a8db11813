import {
  type AccountSession,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { type FacebookApiConfig, graphCall } from "./api.ts";
import { findFacebookPost } from "./find-published.ts";
import { publishFacebook } from "./publish.ts";

/*
 * A Page post with a first comment: the post (publish.ts), then the Page's own comment on it
 * (POST /{post-id}/comments, with pages_manage_engagement), through core's publishThread, which keeps
 * both outcomes in the target's step: a retry or restart never posts twice nor comments twice, and a
 * comment that fails leaves the post published, the failure said on the target.
 *
 * Before the post is sent, when is saved: an attempt stopped after that without the post's id looks for
 * the post among the Page's posts made since (find-published.ts) before it sends it again.
 */

/** How far before the attempt a found post may be dated (clocks apart). */
const CLOCK_SLACK_MS = 5 * 60_000;

export async function publishFacebookRich(
  api: FacebookApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  if (!post.firstComment) return publishFacebook(api, account, post);
  const token = String(account.credentials.access_token ?? "");
  return publishThread("facebook", post, {
    async send(part) {
      if (part.step === null) await part.saveStep({ sent_at: api.now() });
      return publishFacebook(api, account, { text: part.text, media: part.media, signal: post.signal });
    },
    async find(part) {
      const sentAt = part.step?.sent_at;
      // Nothing saved: the attempt stopped before the post was sent.
      if (typeof sentAt !== "number") return null;
      const lost = { key: post.key, text: part.text, since: sentAt - CLOCK_SLACK_MS };
      return findFacebookPost(api, account, lost, post.signal);
    },
    async comment(text: string, root: SentPart): Promise<SentPart> {
      const made = (await graphCall(
        api,
        token,
        "POST",
        `/${encodeURIComponent(root.id)}/comments`,
        new URLSearchParams({ message: text }),
        post.signal,
      )) as { id?: unknown } | null;
      if (typeof made?.id !== "string") {
        throw new NetworkError("facebook", "unknown", "Facebook answered the comment without its id.");
      }
      const id = made.id;
      // The comment is on the Page whatever happens next: its address is asked for once, else the post's.
      const read = (await graphCall(
        api,
        token,
        "GET",
        `/${encodeURIComponent(id)}?fields=permalink_url`,
        null,
        post.signal,
        true,
      ).catch(() => null)) as { permalink_url?: unknown } | null;
      const permalink = typeof read?.permalink_url === "string" ? read.permalink_url : root.permalink;
      return { id, permalink };
    },
  });
}
