import type { IDataObject, IHttpRequestOptions } from "n8n-workflow";

/** What n8n's `httpRequestWithAuthentication` answers with `returnFullResponse: true`. */
export interface FullResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

/** One request as it left the node, after n8n applied the credential. */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export type Fetch = (request: Request) => Promise<Response>;

export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

/**
 * n8n's authenticated request helper, reduced to what these nodes use, over a fetch function: the
 * in-process reference service's `fetch`, or the global `fetch` to a real server. It applies the
 * credential the way n8n applies its `authenticate` block (a Bearer header), encodes query and body
 * as n8n's axios adapter does, and parses JSON answers as axios does.
 */
export class N8nHttp {
  readonly requests: RecordedRequest[] = [];
  /** Answers to give instead of calling the service, one per request, in order (errors are thrown). */
  readonly scripted: Array<FullResponse | Error> = [];

  private readonly fetch: Fetch;

  constructor(fetch: Fetch) {
    this.fetch = fetch;
  }

  async request(
    credentialType: string,
    options: IHttpRequestOptions,
    credentials: Credentials,
  ): Promise<unknown> {
    if (credentialType !== "socialPublishApi")
      throw new Error(`unexpected credential type ${credentialType}`);
    const url = new URL(options.url);
    for (const [name, value] of Object.entries(options.qs ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries((options.headers ?? {}) as IDataObject)) {
      headers[name.toLowerCase()] = String(value);
    }
    headers.authorization = `Bearer ${credentials.apiKey}`;
    let body: BodyInit | undefined;
    if (Buffer.isBuffer(options.body)) {
      body = new Uint8Array(options.body);
    } else if (options.body !== undefined && options.body !== null) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const method = options.method ?? "GET";
    this.requests.push({ method, url, headers, body: options.body });

    const response = await this.answer(
      new Request(url, {
        method,
        headers,
        body,
        redirect: options.disableFollowRedirect ? "manual" : "follow",
      }),
    );
    if (!options.ignoreHttpStatusErrors && response.statusCode >= 400) {
      throw new Error(`Request failed with status code ${response.statusCode}`);
    }
    return options.returnFullResponse ? response : response.body;
  }

  private async answer(request: Request): Promise<FullResponse> {
    const next = this.scripted.shift();
    if (next instanceof Error) throw next;
    if (next) return next;
    const response = await this.fetch(request);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === "" ? "" : JSON.parse(text);
    } catch {
      // Not JSON: axios hands the text over as it is.
    }
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body };
  }

  /** The requests whose path (under /api/v1) is `path`. */
  to(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.url.pathname.endsWith(`/api/v1${path}`));
  }
}
