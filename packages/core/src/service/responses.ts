/**
 * The text of bodies this service built from a string, by response. A server that writes responses to
 * a socket can send that text as it is instead of reading it back through the body's web stream — the
 * larger part of what writing a small JSON answer costs. The body stream stays untouched and readable.
 */
const bodyTexts = new WeakMap<Response, string>();

/** A response with a body of text, whose text a server can take as it is (see `bodyTextOf`). */
export function textResponse(status: number, text: string, headers: HeadersInit): Response {
  const response = new Response(text, { status, headers });
  bodyTexts.set(response, text);
  return response;
}

/** The body of a response made by `textResponse`, or undefined for any other response. */
export function bodyTextOf(response: Response): string | undefined {
  return bodyTexts.get(response);
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
