import type { NetworkId } from "../../contract/networks.ts";
import type { ScheduleBody } from "../../contract/requests.ts";
import { nextSlot, slotOf } from "../../scheduler/next-slot.ts";
import type { PostRecord, TargetRecord } from "../../store/types.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { Caller, RequestContext, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { json } from "../responses.ts";
import { interactionsOf, toPost } from "../serialize.ts";
import { checkPostContent, type PostMode, savePost } from "./post-rules.ts";

/**
 * POST /schedule: queues a post for an exact time (`at`, with the rules of schedule_at) or for the next
 * optimal slot (`at: "next"`). Same checks, in the same order, as POST /posts. 201 with the post.
 */
export async function schedulePost({
  deps,
  caller,
  body,
  keptAnswer,
}: RequestContext<ScheduleBody>): Promise<Response> {
  const now = deps.clock.now();
  const content = await checkPostContent(deps, caller, body);
  let mode: PostMode | (() => Promise<PostMode>);
  if (body.at === "next") {
    // Worked out in the user's queue, with the insert: two posts asking at once get different slots.
    mode = async () => ({
      kind: "scheduled",
      at: await nextOptimalSlot(deps, caller, content.platforms, now),
    });
  } else {
    const parsed = parseScheduleAt(body.at, now, "at");
    if (!parsed.ok) throw badRequest(parsed.message);
    mode = { kind: "scheduled", at: parsed.at };
  }
  const answer = (post: PostRecord, targets: TargetRecord[]) => keptAnswer(201, toPost(post, targets));
  const { post, targets } = await savePost(deps, caller, content, mode, now, answer);
  return json(201, toPost(post, targets));
}

async function nextOptimalSlot(
  deps: ServiceDeps,
  caller: Caller,
  platforms: NetworkId[],
  now: number,
): Promise<number> {
  const userId = caller.user.id;
  const wanted = new Set(platforms);
  const history = (await deps.store.listPublishedTargets(userId))
    .filter((t) => wanted.has(t.platform) && t.published_at !== null)
    .map((t) => ({
      post_id: t.post_id,
      published_at: t.published_at!,
      reach: t.reach,
      interactions: interactionsOf(t),
    }));
  const taken = new Set<number>();
  for (const post of await pendingPosts(deps, userId)) {
    if (post.scheduled_at !== null && post.platforms.some((p) => wanted.has(p)))
      taken.add(slotOf(post.scheduled_at));
  }
  const at = nextSlot({ now, history, isFree: (slot) => !taken.has(slot) });
  if (at === null)
    throw badRequest("No free slot within a year for these networks; give an exact time in at.");
  return at;
}

/** Every scheduled (or publishing) post of the user, page by page. */
async function pendingPosts(deps: ServiceDeps, userId: string): Promise<PostRecord[]> {
  const out: PostRecord[] = [];
  let beforeId: string | undefined;
  for (;;) {
    const page = await deps.store.listPosts(userId, {
      statuses: ["scheduled", "publishing"],
      limit: 500,
      beforeId,
    });
    out.push(...page);
    if (page.length < 500) return out;
    beforeId = page.at(-1)!.id;
  }
}
