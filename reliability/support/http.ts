import type { Figures } from "./figures.ts";

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
  body: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One API request to a running server (`${origin}/api/v1${path}`) with a key, counted in the figures.
 * Throws when no answer came (the server was killed, the connection cut).
 */
export async function call(
  figures: Figures,
  server: { url: string },
  key: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  figures.requests++;
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(options.body !== undefined && { "content-type": "application/json" }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Every post of the key's user, following the Link header page by page. */
export async function listAllPosts(
  figures: Figures,
  server: { url: string },
  key: string,
): Promise<Array<{ id: string; caption: string; status: string; platforms: string[] }>> {
  const out = [];
  let path: string | null = "/posts?limit=100";
  while (path !== null) {
    const res = await call(figures, server, key, "GET", path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
    out.push(...res.body.data);
    const link = res.headers.get("link");
    path = link ? /^<\/api\/v1([^>]+)>; rel="next"$/.exec(link)![1]! : null;
  }
  return out;
}
