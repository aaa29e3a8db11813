/*
 * GitHub's own short forms for its URLs, so a post says "#123" where the release page shows "#123"
 * instead of spelling out https://github.com/owner/repo/pull/123.
 */

interface GitHubTarget {
  repo: string;
  kind: "number" | "commit";
  id: string;
}

const ITEM_URL = /^https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/(pull|issues|discussions|commit)\/(\w+)\/?$/i;
const PROFILE_URL = /^https?:\/\/github\.com\/([\w-]+(?:\[bot\])?)\/?$/i;
const SHORT_SHA = 7;

function parseItemUrl(url: string): GitHubTarget | undefined {
  const match = ITEM_URL.exec(url);
  if (!match) return undefined;
  const [, repo, kind, id] = match as unknown as [string, string, string, string];
  if (kind.toLowerCase() === "commit")
    return /^[0-9a-f]+$/i.test(id) ? { repo, kind: "commit", id } : undefined;
  return /^\d+$/.test(id) ? { repo, kind: "number", id } : undefined;
}

/**
 * The short reference GitHub renders for an issue, pull request, discussion or commit URL: `#123` or
 * a 7-character sha in `repo` itself, `owner/name#123` or `owner/name@sha` elsewhere. Undefined for
 * every other URL, which stays as it is.
 */
export function shortGitHubReference(url: string, repo: string | undefined): string | undefined {
  const target = parseItemUrl(url);
  if (!target) return undefined;
  const sameRepo = repo !== undefined && target.repo.toLowerCase() === repo.toLowerCase();
  if (target.kind === "commit") {
    const sha = target.id.slice(0, SHORT_SHA);
    return sameRepo ? sha : `${target.repo}@${sha}`;
  }
  return sameRepo ? `#${target.id}` : `${target.repo}#${target.id}`;
}

/**
 * Whether a link's text already tells a reader what its GitHub URL points at: `#123` for that pull
 * request or issue, a prefix of that commit's sha, or the login of that profile. Such a link needs no
 * URL after it.
 */
export function textNamesGitHubUrl(text: string, url: string): boolean {
  const label = text.trim();
  const target = parseItemUrl(url);
  if (target?.kind === "number")
    return label.endsWith(`#${target.id}`) && /^([\w.-]+\/[\w.-]+)?#\d+$/.test(label);
  if (target?.kind === "commit") {
    return /^[0-9a-f]{4,40}$/i.test(label) && target.id.toLowerCase().startsWith(label.toLowerCase());
  }
  const login = PROFILE_URL.exec(url)?.[1];
  return login !== undefined && login.toLowerCase() === label.replace(/^@/, "").toLowerCase();
}

// A GitHub login: letters, digits and single hyphens, up to 39 characters, optionally a bot's "[bot]".
// Not preceded by a word character (an e-mail address) and not followed by "/" (a scoped npm package
// such as @types/node).
const MENTION = /(^|[^\w@])@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?)(?![\w/-])/g;

/**
 * GitHub @mentions without their "@". A GitHub login is not a handle on the social networks: on X or
 * Threads "@name" would tag whoever owns that name there.
 */
export function unmention(text: string): string {
  return text.replace(MENTION, "$1$2");
}
