import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type LinkedInApiConfig, linkedinCall } from "./api.ts";
import { escapeLittleText, linkedinPermalink } from "./publish.ts";

/*
 * The post a lost attempt may have made on LinkedIn, read back with the Posts API's author finder
 * (GET /rest/posts?q=author&author={urn}&sortBy=CREATED: the member's posts, newest made first), back
 * to `since`. LinkedIn keeps the commentary as it was sent, in its "little text" format, so it is
 * compared with the text escaped as the publish escapes it. A post with an image is matched by its
 * commentary alone: the image's URN was LinkedIn's answer to an upload the lost attempt made, not
 * something the retry knows.
 *
 * LinkedIn lets an app read a member's posts only with the r_member_social scope, which it grants to
 * apps it has approved; without it the read is refused, and the target fails as "outcome unknown".
 */

const READ_BACK = {
  network: "linkedin",
  name: "LinkedIn",
  why: "LinkedIn does not let this app read the member's posts back to see whether it was made: that needs the r_member_social scope, which LinkedIn grants to apps it approves; once the app has it, add it to SOCIALPUB_LINKEDIN_SCOPES and connect the account again",
} as const;

/** The finder's largest page. */
const PAGE_SIZE = 100;
/** Two pages: more than the 150 posts a day LinkedIn lets a member make. */
const MAX_PAGES = 2;

interface FinderAnswer {
  elements?: { id?: unknown; commentary?: unknown; createdAt?: unknown }[];
}

export async function findLinkedInPost(
  api: LinkedInApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const token = String(account.credentials.access_token ?? "");
  const author = encodeURIComponent(String(account.credentials.author ?? ""));
  return readBackSince<number>({
    network: "linkedin",
    name: "LinkedIn",
    text: escapeLittleText(lost.text),
    since: lost.since,
    maxPages: MAX_PAGES,
    async readPage(cursor) {
      const start = cursor ?? 0;
      const path = `/rest/posts?q=author&author=${author}&sortBy=CREATED&count=${PAGE_SIZE}&start=${start}`;
      const finder = { "x-restli-method": "FINDER" };
      const { body } = await linkedinCall(api, token, "GET", path, null, signal, true, finder).catch(
        (error: unknown) => {
          throw refusedReadBack(READ_BACK, error);
        },
      );
      const elements = (body as FinderAnswer | null)?.elements;
      if (!Array.isArray(elements)) throw cannotReadBack(READ_BACK);
      const posts = elements.flatMap((post): ListedPost[] =>
        typeof post.id === "string"
          ? [
              {
                id: post.id,
                text: typeof post.commentary === "string" ? post.commentary : null,
                at: typeof post.createdAt === "number" ? post.createdAt : Number.NaN,
                permalink: linkedinPermalink(post.id),
              },
            ]
          : [],
      );
      // A full page may have more after it; a short one is the last.
      return { posts, next: elements.length < PAGE_SIZE ? null : start + PAGE_SIZE };
    },
  });
}
