/**
 * An error that is an answer: a status, the message for the `{"error": ...}` body, and any headers
 * (Allow, Retry-After, WWW-Authenticate). Handlers throw it; the pipeline turns it into a response.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
