import { type Release, releaseFromGitHub } from "./release.ts";

export interface ReleaseLookup {
  token: string | undefined;
  apiUrl: string;
  /** owner/name */
  repository: string;
  tag: string;
}

/** The published release of a tag, through GitHub's REST API. Errors say what to fix. */
export async function fetchReleaseByTag({ token, apiUrl, repository, tag }: ReleaseLookup): Promise<Release> {
  if (!token) {
    throw new Error(
      `Announcing the release of tag ${tag} means looking it up on GitHub, which needs the \`github-token\` input (by default the workflow's GITHUB_TOKEN, \`\${{ github.token }}\`).`,
    );
  }
  const [owner, repo] = repository.split("/");
  if (!owner || !repo)
    throw new Error("GITHUB_REPOSITORY is not set to owner/name; is this running on a GitHub runner?");
  // Loaded here rather than at start: @actions/github parses GITHUB_EVENT_PATH as it loads, so a broken
  // event file would crash the step with a stack trace before run() could explain it. By now the event
  // has been read (readRunContext), and any error here still reaches setFailed. In dist/ it is a chunk
  // of its own, which only a run that looks a release up reads.
  const { getOctokit } = await import("@actions/github");
  const octokit = getOctokit(token, { baseUrl: apiUrl });
  try {
    const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag });
    return releaseFromGitHub(data);
  } catch (error) {
    throw new Error(explainLookupFailure(error, repository, tag), { cause: error });
  }
}

function explainLookupFailure(error: unknown, repository: string, tag: string): string {
  const status = (error as { status?: unknown }).status;
  switch (status) {
    case 404:
      return `${repository} has no published release for the tag ${tag}. Publish the release first (drafts are not announced), or check the \`tag\` input.`;
    case 401:
      return "GitHub refused the `github-token` (401). Leave the input at its default, the workflow's GITHUB_TOKEN, or pass a valid token.";
    case 403:
      return `The \`github-token\` may not read the releases of ${repository} (403). Give the job \`permissions: contents: read\`.`;
    default:
      return `Could not read the release of tag ${tag} from GitHub: ${(error as Error).message}`;
  }
}
