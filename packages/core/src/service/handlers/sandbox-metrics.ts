import type { z } from "zod";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { NETWORK_RULES } from "../../contract/networks.ts";
import type { SandboxMetricsBody } from "../../contract/requests.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toTarget } from "../serialize.ts";
import { targetMedia } from "../target-media.ts";

/**
 * POST /sandbox/metrics: a sandbox network reports figures for a post it published. Test keys only.
 * Figures never go down: a lower figure than one already reported leaves that figure as it was.
 */
export async function reportSandboxMetrics({
  deps,
  caller,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof SandboxMetricsBody>>): Promise<Response> {
  if (caller.key.mode !== "test") {
    throw new HttpError(403, "Sandbox metrics take a test key (sp_test_…); live networks report their own.");
  }
  const post = await deps.store.getPost(caller.user.id, body.post_id);
  if (!post) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  const target = (await deps.store.getTargets(post.id)).find((t) => t.platform === body.platform);
  const name = NETWORK_RULES[body.platform].name;
  if (!target)
    throw badRequest(
      `The post does not target ${body.platform}; report metrics for one of: ${post.platforms.join(", ")}.`,
    );
  if (target.status !== "published") {
    throw badRequest(
      `${name} has not published this post (its status there is ${target.status}), so it has no metrics.`,
    );
  }
  const media = await targetMedia(deps, post, target);
  const updated = await deps.store.reportMetrics(
    post.id,
    body.platform,
    { reach: body.reach, likes: body.likes ?? 0, comments: body.comments ?? 0, shares: body.shares ?? 0 },
    (target) => ({ idempotency: keptAnswer(200, toTarget(target, media)) }),
  );
  if (!updated) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  return json(200, toTarget(updated, media));
}
