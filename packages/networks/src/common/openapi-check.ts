import addFormats from "ajv-formats";
import { type Document, OpenAPIBackend, type Operation } from "openapi-backend";
import { readNetworkSpec } from "./spec-files.ts";

/*
 * Checks a fake's traffic against a network's OpenAPI description (x-openapi.json, discord-openapi.json,
 * pinterest-openapi.json): each request the fake receives and each answer it sends goes through
 * openapi-backend's validator for the operation it matches — path, query and body of the request;
 * status, headers and body of the answer. What strays is returned as sentences, which the fake keeps and
 * tests assert stay none.
 */

/** The formats every description here uses that ajv-formats does not know: accepted as they come. */
const LOOSE_FORMATS = ["int32", "int64", "double", "float", "binary", "byte"];

export interface OpenApiCheckOptions {
  /** A description's own formats (Discord's snowflake), accepted as they come: a pattern beside them checks the value. */
  formats?: readonly string[];
  /**
   * The operations a fake serves, compiled when the check loads, so the first request a test sends is
   * not the one that waits seconds for their validators.
   */
  warmUp?: readonly { method: string; path: string; statuses: readonly number[] }[];
}

export interface SpecRequest {
  method: string;
  /** The path as the description writes it (the server URL's path, if any, taken off). */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The JSON body, or a multipart body's fields. */
  body?: unknown;
}

const checks = new Map<string, Promise<OpenApiCheck>>();

/**
 * OpenAPI 3.0 lets `nullable` stand beside `allOf`/`$ref` without a `type` (pinterest-openapi.json does),
 * which Ajv refuses to compile; such a schema is rewritten, in the parsed copy only, as the same schema
 * or null. Walks the description once.
 */
function typedNullables(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) typedNullables(item);
  } else if (node && typeof node === "object") {
    const schema = node as Record<string, unknown>;
    for (const value of Object.values(schema)) typedNullables(value);
    if (schema.nullable === true && schema.type === undefined) {
      const { nullable: _nullable, ...inner } = schema;
      for (const key of Object.keys(schema)) delete schema[key];
      schema.anyOf = [inner, { type: "null" }];
    }
  }
  return node;
}

export class OpenApiCheck {
  readonly version: string;
  readonly #api: OpenAPIBackend;
  readonly #label: string;

  private constructor(api: OpenAPIBackend, version: string, label: string) {
    this.#api = api;
    this.version = version;
    this.#label = label;
  }

  /** One check per description per process: compiling validators takes seconds. */
  static shared(file: string, label: string, options: OpenApiCheckOptions = {}): Promise<OpenApiCheck> {
    let check = checks.get(file);
    if (!check) {
      check = OpenApiCheck.load(file, label, options);
      checks.set(file, check);
    }
    return check;
  }

  static async load(file: string, label: string, options: OpenApiCheckOptions = {}): Promise<OpenApiCheck> {
    const definition = typedNullables(readNetworkSpec(file)) as Document & { info: { version: string } };
    const api = new OpenAPIBackend({
      definition,
      // quick: skip checking the description itself, and compile each operation's validators on first use.
      quick: true,
      validate: true,
      ajvOpts: { strict: false, logger: false },
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        for (const format of [...LOOSE_FORMATS, ...(options.formats ?? [])]) ajv.addFormat(format, true);
        return ajv;
      },
    });
    await api.init();
    const check = new OpenApiCheck(api, definition.info.version, label);
    for (const { method, path, statuses } of options.warmUp ?? []) {
      check.request({ method, path, query: {}, headers: {}, ...(method === "GET" ? {} : { body: {} }) });
      for (const status of statuses) check.answer(method, path, status, {}, {});
    }
    return check;
  }

  /** The operation a request matches, or null when the description has no such path and method. */
  operation(method: string, path: string): Operation | null {
    return this.#api.router.matchOperation({ method, path, headers: {} }) ?? null;
  }

  /** What is wrong with a request, by the description ([] when nothing). */
  request(request: SpecRequest): string[] {
    const operation = this.operation(request.method, request.path);
    if (!operation) return [`${request.method} ${request.path}: no such operation in the ${this.#label}`];
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
    if (!operation) return [`${method} ${path}: no such operation in the ${this.#label}`];
    const id = operation.operationId;
    const problems: string[] = [];
    const known = Object.keys(operation.responses ?? {});
    const declared =
      known.includes(String(status)) || known.includes(`${String(status)[0]}XX`) || known.includes("default");
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
