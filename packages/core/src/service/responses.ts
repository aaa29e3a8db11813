/**
 * What this service built a response from, when it built it from a string: its status, text and, when
 * given as a plain object, its headers. A server that writes responses to a socket can send the text as
 * it is instead of reading it back through the body's web stream — the larger part of what writing a
 * small JSON answer costs — and a header can be added or read without turning the headers into a
 * `Headers` object, which costs about as much again. The response itself stays a complete `Response`.
 */
interface TextAnswer {
  status: number;
  text: string;
  /** Lower-case names, as every response of the service spells them; undefined when given otherwise. */
  headers: Readonly<Record<string, string>> | undefined;
}

/**
 * Kept on the response itself, under a symbol, not in a WeakMap: with a WeakMap each response and the
 * text it holds outlived V8's young-generation collections and was copied into the old generation,
 * there to wait for a full collection (docs/performance.md, "What a request
 * leaves in the old generation").
 */
const TEXT_ANSWER = Symbol("socialpub.textAnswer");
type WithTextAnswer = Response & { [TEXT_ANSWER]?: TextAnswer };

/**
 * A response with a body of text, whose text a server can take as it is (see `bodyTextOf`). Add headers
 * to it with `withHeaders`, not through `response.headers`, which the record would not see.
 */
export function textResponse(status: number, text: string, headers: HeadersInit): Response {
  const response: WithTextAnswer = new Response(text, { status, headers });
  const plain = headers instanceof Headers || Array.isArray(headers) ? undefined : headers;
  response[TEXT_ANSWER] = { status, text, headers: plain };
  return response;
}

/** The body of a response made by `textResponse`, or undefined for any other response. */
export function bodyTextOf(response: Response): string | undefined {
  return (response as WithTextAnswer)[TEXT_ANSWER]?.text;
}

/** A header of `response` (`name` in lower case), read from what it was made of when possible. */
export function headerOf(response: Response, name: string): string | null {
  const headers = (response as WithTextAnswer)[TEXT_ANSWER]?.headers;
  return headers ? (headers[name] ?? null) : response.headers.get(name);
}

/**
 * `response` with `added` headers (lower-case names) set: a response made by `textResponse` is made
 * again with them, any other gets them set, or is copied first when its headers are immutable. The
 * service adds headers to its answers only through here, so what `textResponse` recorded stays what
 * the response carries.
 */
export function withHeaders(response: Response, added: Readonly<Record<string, string>>): Response {
  const answer = (response as WithTextAnswer)[TEXT_ANSWER];
  if (answer?.headers) return textResponse(answer.status, answer.text, { ...answer.headers, ...added });
  try {
    setAll(response.headers, added);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    setAll(copy.headers, added);
    return copy;
  }
}

function setAll(headers: Headers, added: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON response. Every body the service sends goes through here (or, already serialised, textResponse). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return textResponse(status, JSON.stringify(body), {
    "content-type": JSON_CONTENT_TYPE,
    ...headers,
  });
}

/** The one error shape: exactly `{"error": "<message>"}`. */
export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json(status, { error: message }, headers);
}
