import addFormats from "ajv-formats";
import { type Document, OpenAPIBackend, type Operation } from "openapi-backend";
import { readNetworkSpec } from "../../common/spec-files.ts";

/*
 * Discord publishes its API as OpenAPI 3.1 (discord-openapi.json). The fake runs each request it
 * receives and each answer it sends through openapi-backend's validator for the operation the request
 * matches: the request's path, query and body, and the answer's status, headers and body.
 */

/** The fake serves the API under this prefix, as discord.com does (the description's server URL). */
export const API_PREFIX = "/api/v10";

export interface SpecRequest {
  method: string;
  /** The path after /api/v10. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The JSON body, or a multipart body's payload_json, parsed. */
  body?: unknown;
}

export class DiscordSpecCheck {
  readonly version: string;
  readonly #api: OpenAPIBackend;

  private constructor(api: OpenAPIBackend, version: string) {
    this.#api = api;
    this.version = version;
  }

  static #shared: Promise<DiscordSpecCheck> | undefined;

  /** One check per process: compiling the description's validators takes seconds. */
  static shared(): Promise<DiscordSpecCheck> {
    DiscordSpecCheck.#shared ??= DiscordSpecCheck.load();
    return DiscordSpecCheck.#shared;
  }

  /** Reads discord-openapi.json from shared/specs/networks beside the repository. */
  static async load(): Promise<DiscordSpecCheck> {
    const definition = readNetworkSpec("discord-openapi.json") as Document & { info: { version: string } };
    const api = new OpenAPIBackend({
      definition,
      // quick: skip checking the description itself, and compile each operation's validators on first use.
      quick: true,
      validate: true,
      ajvOpts: { strict: false, logger: false },
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        // Discord's own formats: ids are decimal strings (the pattern beside the format checks them).
        for (const format of ["snowflake", "nonce", "int32", "int64", "double", "float"]) {
          ajv.addFormat(format, true);
        }
        return ajv;
      },
    });
    await api.init();
    const check = new DiscordSpecCheck(api, definition.info.version);
    check.#warmUp();
    return check;
  }

  /**
   * Compiles the validators of the operations the fake serves now, so the first request a test sends
   * is not the one that waits seconds for them.
   */
  #warmUp(): void {
    const path = "/webhooks/1/token";
    for (const method of ["GET", "POST"]) {
      this.request({ method, path, query: {}, headers: {}, ...(method === "POST" ? { body: {} } : {}) });
      for (const status of [200, 204, 400, 429]) this.answer(method, path, status, {}, {});
    }
  }

  /** The operation a request matches, or null when the description has no such path and method. */
  operation(method: string, path: string): Operation | null {
    return this.#api.router.matchOperation({ method, path, headers: {} }) ?? null;
  }

  /** What is wrong with a request, by the description ([] when nothing). */
  request(request: SpecRequest): string[] {
    const operation = this.operation(request.method, request.path);
    if (!operation)
      return [`${request.method} ${request.path}: no such operation in the Discord API description`];
    const result = this.#api.validator.validateRequest(
      { ...request, method: request.method.toLowerCase() },
      operation,
    );
    return [
      ...new Set(
        (result.errors ?? []).map((e) => `${operation.operationId} request${e.instancePath} ${e.message}`),
      ),
    ];
  }

  /** What is wrong with an answer to `method path`, by the description ([] when nothing). */
  answer(
    method: string,
    path: string,
    status: number,
    headers: Record<string, string>,
    body: unknown,
  ): string[] {
    const operation = this.operation(method, path);
    if (!operation) return [`${method} ${path}: no such operation in the Discord API description`];
    const id = operation.operationId;
    const problems: string[] = [];
    const known = Object.keys(operation.responses ?? {});
    const declared = known.includes(String(status)) || known.includes(`${String(status)[0]}XX`);
    if (!declared)
      problems.push(`${id} answer: status ${status} is not one the description lists (${known.join(", ")})`);
    const bodyResult = this.#api.validator.validateResponse(body, operation, status);
    for (const e of bodyResult.errors ?? [])
      problems.push(`${id} ${status} answer body${e.instancePath} ${e.message}`);
    const headerResult = this.#api.validator.validateResponseHeaders(headers, operation, {
      statusCode: status,
    });
    for (const e of headerResult.errors ?? [])
      problems.push(`${id} ${status} answer headers${e.instancePath} ${e.message}`);
    return [...new Set(problems)];
  }
}
