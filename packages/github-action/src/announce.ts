import { MAX_THREAD_PARTS, NETWORK_RULES, type NetworkId, type Post, type Target } from "@socialpub/core";
import { type Caption, composeCaption } from "./caption.ts";
import type { NetworkResult } from "./direct/publisher.ts";
import { announcementKey } from "./direct/release-key.ts";
import { planFromEvent } from "./event.ts";
import type { FailureContext } from "./explain.ts";
import { CONNECTED_NETWORKS, defaultIdempotencyKey } from "./idempotency.ts";
import type { ActionInputs } from "./inputs.ts";
import { mediaBody } from "./media-input.ts";
import { choosePlatforms, describeLeftOut, type LeftOut } from "./platforms.ts";
import type { NewPost, Publisher } from "./publisher.ts";
import { type Release, reasonNotToAnnounce } from "./release.ts";
import { releaseNotesToText } from "./release-notes/to-social-text.ts";
import type { RunContext } from "./run-context.ts";
import { renderTemplate, versionFromTag } from "./template.ts";

/** The most parts a thread may have: the post and 24 further parts (decisions.md "Rich posts"). */
const MAX_PARTS = 1 + MAX_THREAD_PARTS;

/** Whether a network publishes a thread's parts as their own messages (its rule's `carries.threads`). */
const threads = (id: NetworkId) => NETWORK_RULES[id].carries.threads !== "joined";

export interface Log {
  info(message: string): void;
  warning(message: string): void;
}

export interface AnnounceDeps {
  inputs: ActionInputs;
  context: RunContext;
  publisher: Publisher;
  /** The published release of a tag (GitHub's API). */
  lookupRelease(tag: string): Promise<Release>;
  log: Log;
  /** Filled in as the run gets further, so a failure can be explained with what was known. */
  failure: FailureContext;
}

/** What a run decided and did; outputs and the job summary are made from it. */
export type Outcome =
  | { kind: "ignored"; reason: string; release?: Release }
  | (Prepared & { kind: "dry-run" })
  | (Prepared & { kind: "posted"; post: Post; replayed: boolean; targets: Target[] | null })
  /** Direct mode: each network's result; no service post to name. */
  | (Prepared & { kind: "direct"; results: NetworkResult[] });

export interface Prepared {
  /** owner/name */
  repository: string;
  release: Release;
  caption: Caption;
  /** Each network's own text, for the networks the `templates` input gives a template. */
  captions: Partial<Record<NetworkId, Caption>>;
  /** The networks the post goes (or would go) to. */
  platforms: NetworkId[];
  leftOut: LeftOut[];
  hasMedia: boolean;
  /**
   * Service mode: the Idempotency-Key the post is sent with. Direct mode: the announcement key that
   * earlier runs' posts are found by.
   */
  idempotencyKey: string;
  /** True when posting directly to the networks, without a service. */
  direct: boolean;
}

/** The whole announcement: which release, which networks, what text, and the post itself. */
export async function announce(deps: AnnounceDeps): Promise<Outcome> {
  const { inputs, context, publisher, log } = deps;
  const plan = planFromEvent(context, inputs.tag);
  if (plan.kind === "ignore") return { kind: "ignored", reason: plan.reason };
  const release = plan.kind === "announce" ? plan.release : await deps.lookupRelease(plan.tag);
  const reason = reasonNotToAnnounce(release, inputs.skipPrerelease);
  if (reason) return { kind: "ignored", reason, release };

  const hasMedia = inputs.media.length > 0;
  // Reading the accounts first checks the key, and tells which networks are really in play: their
  // limits are the ones the caption must fit.
  const connected = await publisher.connectedPlatforms();
  const requested = inputs.platforms.length > 0 ? inputs.platforms : connected;
  if (requested.length === 0) {
    throw new Error(
      "No network is connected to the account: connect one in the service, then re-run the job.",
    );
  }
  if (inputs.platforms.length === 0)
    log.info(
      `\`platforms\` is empty: announcing on every ${publisher.kind === "direct" ? "network with credentials" : "connected network"} (${connected.join(", ")}).`,
    );

  const choice = choosePlatforms(requested, inputs.media);
  const platforms = choice.platforms.filter((id) => connected.includes(id));
  const direct = publisher.kind === "direct";
  const leftOut: LeftOut[] = [
    ...choice.leftOut,
    ...choice.platforms
      .filter((id) => !connected.includes(id))
      .map((platform) => ({
        platform,
        reason: direct ? ("no-credentials" as const) : ("not-connected" as const),
      })),
  ];
  for (const item of leftOut) log.warning(describeLeftOut(item));
  if (platforms.length === 0) {
    throw new Error(`No network is left to post to: ${leftOut.map(describeLeftOut).join(" ")}`);
  }

  const notes = releaseNotesToText(release.body, { repo: context.repository });
  const [owner = "", repoName = ""] = context.repository.split("/");
  const values = {
    repo: context.repository,
    owner,
    repo_name: repoName,
    tag: release.tag,
    name: release.name,
    version: versionFromTag(release.tag),
    url: release.url,
  };
  // A network with a template of its own gets its own text, shortened for it alone; the shared caption
  // only has to fit the networks that use it.
  const own = platforms.filter((id) => inputs.templates[id] !== undefined);
  const shared = platforms.filter((id) => !own.includes(id));
  // long-notes: thread — a network that threads gets the notes whole, as a thread of parts; the
  // shared caption then only has to fit the networks that do not.
  const threading = inputs.longNotes === "thread" ? platforms.filter(threads) : [];
  const sharedShortened = shared.filter((id) => !threading.includes(id));
  const caption = composeCaption({
    template: inputs.template,
    values,
    notes,
    platforms: sharedShortened.length > 0 ? sharedShortened : shared.length > 0 ? shared : platforms,
    hasMedia,
    ...(sharedShortened.length === 0 && threading.length > 0 && { parts: MAX_PARTS }),
  });
  const captions: Partial<Record<NetworkId, Caption>> = {};
  for (const id of platforms) {
    const template = inputs.templates[id];
    if (template === undefined && !threading.includes(id)) continue;
    const text = composeCaption({
      template: template ?? inputs.template,
      values,
      notes,
      platforms: [id],
      hasMedia,
      ...(threading.includes(id) && { parts: MAX_PARTS }),
    });
    if (template !== undefined || text.text !== caption.text) captions[id] = text;
  }
  if ([caption, ...Object.values(captions)].some((c) => c.notesShortened))
    log.info("The release notes were shortened so the post fits every network it goes to.");
  for (const warning of new Set([caption, ...Object.values(captions)].flatMap((c) => c.warnings)))
    log.warning(warning);

  // Keyed on the networks asked for, never on which accounts are connected today, so a re-run after an
  // account changed finds the first request instead of posting again. With `platforms` empty, what was
  // asked for is "every connected network", whichever those are.
  // Direct mode keys on the release alone: each network's post is found by it whatever else changed.
  const idempotencyKey = direct
    ? announcementKey(context.repository, release.id, inputs.idempotencyKey)
    : (inputs.idempotencyKey ??
      defaultIdempotencyKey(
        context.repository,
        release.id,
        inputs.platforms.length > 0 ? choice.platforms : CONNECTED_NETWORKS,
      ));
  const prepared: Prepared = {
    repository: context.repository,
    release,
    caption,
    captions,
    platforms,
    leftOut,
    hasMedia,
    idempotencyKey,
    direct,
  };
  Object.assign(deps.failure, { idempotencyKey, platforms });
  if (inputs.dryRun) return { kind: "dry-run", ...prepared };

  const ownText = Object.entries(captions).map(([id, c]) => [id, c.text]);
  const media = mediaBody(inputs.media);
  const firstComment =
    inputs.firstComment === undefined
      ? ""
      : renderTemplate(inputs.firstComment, { ...values, body: notes }).trim();
  const post: NewPost = {
    caption: caption.text,
    ...(ownText.length > 0 && { captions: Object.fromEntries(ownText) }),
    platforms,
    ...(media !== undefined && { media }),
    ...(threading.length > 0 && { split: "thread" as const }),
    ...(firstComment !== "" && { first_comment: firstComment }),
  };
  if (publisher.kind === "direct") {
    const results = await publisher.announce(post, {
      key: idempotencyKey,
      releaseTimeMs: release.publishedAt ?? 0,
    });
    return { kind: "direct", ...prepared, results };
  }

  const created = await publisher.createPost(
    { ...post, ...(inputs.scheduleAt === undefined ? {} : { schedule_at: inputs.scheduleAt }) },
    idempotencyKey,
  );
  let targets: Target[] | null = null;
  try {
    targets = await publisher.targets(created.post.id);
  } catch (error) {
    log.warning(
      `The post was created, but its per-network results could not be read: ${(error as Error).message}`,
    );
  }
  return { kind: "posted", ...prepared, post: created.post, replayed: created.replayed, targets };
}
