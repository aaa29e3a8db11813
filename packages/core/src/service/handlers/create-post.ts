import type { CreatePostBody } from "../../contract/requests.ts";
import type { PostRecord, TargetRecord } from "../../store/types.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { RequestContext } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { json } from "../responses.ts";
import { toPost } from "../serialize.ts";
import { checkPostContent, type PostMode, savePost } from "./post-rules.ts";

/**
 * POST /posts. Checks run in the order decisions.md fixes — body shape, platforms resolve, empty post,
 * media rules, schedule_at, plan limits — so the first problem a client sees is always the same one.
 */
export async function createPost({
  deps,
  body,
  caller,
  keptAnswer,
}: RequestContext<CreatePostBody>): Promise<Response> {
  const now = deps.clock.now();
  if (body.draft === true && body.schedule_at !== undefined) {
    throw badRequest("A draft has no schedule: send draft: true or schedule_at, not both.");
  }
  const content = await checkPostContent(deps, caller, body);
  let mode: PostMode = body.draft === true ? { kind: "draft" } : { kind: "now" };
  if (body.schedule_at !== undefined) {
    const parsed = parseScheduleAt(body.schedule_at, now);
    if (!parsed.ok) throw badRequest(parsed.message);
    mode = { kind: "scheduled", at: parsed.at };
  }
  const answer = (post: PostRecord, targets: TargetRecord[]) => keptAnswer(201, toPost(post, targets));
  const { post, targets } = await savePost(deps, caller, content, mode, now, answer);
  return json(201, toPost(post, targets));
}
