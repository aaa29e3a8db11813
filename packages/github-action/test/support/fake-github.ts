import { createServer, type Server } from "node:http";

export interface FakeGitHub {
  /** Use as GITHUB_API_URL. */
  url: string;
  /** Authorization headers the API received, for checking the token was sent. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A stand-in for GitHub's REST API, on port 0: answers `GET /repos/{owner}/{repo}/releases/tags/{tag}`
 * from `releases` (keyed "owner/repo@tag") and 404 otherwise, as GitHub does for unknown and draft
 * releases. GitHub is not ours to run here; this is the one peer the tests imitate.
 */
export function startFakeGitHub(releases: Record<string, unknown>): Promise<FakeGitHub> {
  const authorizations: string[] = [];
  const server: Server = createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? "");
    const match = /^\/repos\/([^/]+)\/([^/]+)\/releases\/tags\/(.+)$/.exec(request.url ?? "");
    const release = match ? releases[`${match[1]}/${match[2]}@${decodeURIComponent(match[3]!)}`] : undefined;
    response.setHeader("content-type", "application/json");
    if (request.method !== "GET" || release === undefined) {
      response.statusCode = 404;
      response.end(
        JSON.stringify({ message: "Not Found", documentation_url: "https://docs.github.com/rest" }),
      );
      return;
    }
    response.end(JSON.stringify(release));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        authorizations,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
