/** A GitHub release, as far as an announcement needs it. */
export interface Release {
  id: number;
  tag: string;
  /** The release title; the tag when the release has none. */
  name: string;
  /** The release notes (Markdown); "" when there are none. */
  body: string;
  /** The release page. */
  url: string;
  draft: boolean;
  prerelease: boolean;
  /** When it was published (else created), Unix ms; null when GitHub gave neither. */
  publishedAt: number | null;
}

/**
 * A release object as GitHub sends it (webhook payload or REST answer) → Release. Throws when a field
 * the announcement needs is missing, which would mean the event is not a release event at all.
 */
export function releaseFromGitHub(value: unknown): Release {
  const r = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof r.id !== "number" || typeof r.tag_name !== "string" || typeof r.html_url !== "string") {
    throw new Error(
      "The event's release object lacks id, tag_name or html_url; it does not look like a GitHub release.",
    );
  }
  const name = typeof r.name === "string" && r.name.trim() !== "" ? r.name.trim() : r.tag_name;
  return {
    id: r.id,
    tag: r.tag_name,
    name,
    body: typeof r.body === "string" ? r.body : "",
    url: r.html_url,
    draft: r.draft === true,
    prerelease: r.prerelease === true,
    publishedAt: timeOf(r.published_at) ?? timeOf(r.created_at),
  };
}

function timeOf(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Why a release is not announced, or undefined when it is. */
export function reasonNotToAnnounce(release: Release, skipPrerelease: boolean): string | undefined {
  if (release.draft)
    return `Release ${release.tag} is a draft; drafts are never announced. Publish it to announce it.`;
  if (release.prerelease && skipPrerelease) {
    return `Release ${release.tag} is a prerelease and \`skip-prerelease\` is true; set \`skip-prerelease: false\` to announce prereleases.`;
  }
  return undefined;
}
