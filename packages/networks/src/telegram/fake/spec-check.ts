import { readNetworkSpec } from "../../common/spec-files.ts";

/*
 * A schema check derived from the scraped Bot API description (telegram-bot-api.json): every method's
 * parameters (name, required, type) and every type's fields. The fake runs each request it receives and
 * each answer it sends through it, so a fake that drifts from the published API fails its tests.
 *
 * Telegram takes parameters as JSON or as form fields; in a form, numbers and booleans arrive as text
 * and objects as JSON-serialized text, which is how they are checked there.
 */

interface Field {
  name: string;
  types: string[];
  required: boolean;
}

interface MethodDef {
  name: string;
  fields?: Field[];
  returns: string[];
}

interface TypeDef {
  name: string;
  fields?: Field[];
  subtypes?: string[];
}

interface BotApiSpec {
  version: string;
  methods: Record<string, MethodDef>;
  types: Record<string, TypeDef>;
}

/** Parameters as they arrived: typed values from a JSON body, text from a form or the query string. */
export type ReceivedParams = Readonly<Record<string, unknown>>;

const ATTACH = "attach://";

export class TelegramSpecCheck {
  readonly version: string;
  readonly #spec: BotApiSpec;

  constructor(spec: BotApiSpec) {
    this.#spec = spec;
    this.version = spec.version;
  }

  /** Reads telegram-bot-api.json from the descriptions kept in packages/networks/specs. */
  static load(): TelegramSpecCheck {
    return new TelegramSpecCheck(readNetworkSpec("telegram-bot-api.json") as BotApiSpec);
  }

  hasMethod(method: string): boolean {
    return Object.hasOwn(this.#spec.methods, method);
  }

  /**
   * Checks one request: the method exists, every parameter is one it documents with a value of a
   * documented type, the required ones are there, and every uploaded file is used (by its parameter's
   * name or through attach://name) and every attach:// names an uploaded file.
   */
  request(method: string, params: ReceivedParams, files: ReadonlySet<string>, form: boolean): string[] {
    const def = this.#spec.methods[method];
    if (!def) return [`${method}: no such method in Bot API ${this.version}`];
    const problems: string[] = [];
    const fields = new Map((def.fields ?? []).map((f) => [f.name, f]));
    for (const field of fields.values()) {
      if (field.required && !(field.name in params) && !files.has(field.name)) {
        problems.push(`${method}: required parameter ${field.name} is missing`);
      }
    }
    const attached = new Set<string>();
    for (const [name, value] of Object.entries(params)) {
      const field = fields.get(name);
      if (!field) {
        problems.push(`${method}: ${name} is not a parameter of ${method}`);
        continue;
      }
      const problem = this.#check(value, field.types, `${method}.${name}`, form, attached);
      if (problem) problems.push(problem);
    }
    for (const file of files) {
      const field = fields.get(file);
      if (field) {
        if (!field.types.includes("InputFile")) problems.push(`${method}: ${file} takes no uploaded file`);
      } else if (!attached.has(file)) {
        problems.push(
          `${method}: uploaded file ${file} is neither a parameter nor named by attach://${file}`,
        );
      }
    }
    for (const name of attached) {
      if (!files.has(name)) problems.push(`${method}: attach://${name} names no uploaded file`);
    }
    return problems;
  }

  /** Checks one answer: {ok:true,result} with the method's documented result, or the error envelope. */
  answer(method: string, body: unknown): string[] {
    if (!isObject(body) || typeof body.ok !== "boolean") return [`${method}: answer is not {ok, …}`];
    const problems: string[] = [];
    if (body.ok) {
      for (const key of Object.keys(body)) {
        if (!["ok", "result", "description"].includes(key)) problems.push(`${method}: answer has ${key}`);
      }
      const def = this.#spec.methods[method];
      if (!def) return [`${method}: no such method in Bot API ${this.version}`];
      const problem = this.#check(body.result, def.returns, `${method} result`, false, new Set());
      if (problem) problems.push(problem);
      return problems;
    }
    for (const key of Object.keys(body)) {
      if (!["ok", "error_code", "description", "parameters"].includes(key)) {
        problems.push(`${method}: error answer has ${key}`);
      }
    }
    if (!Number.isInteger(body.error_code)) problems.push(`${method}: error answer without error_code`);
    if (typeof body.description !== "string") problems.push(`${method}: error answer without description`);
    if ("parameters" in body) {
      const problem = this.#check(
        body.parameters,
        ["ResponseParameters"],
        `${method} parameters`,
        false,
        new Set(),
      );
      if (problem) problems.push(problem);
    }
    return problems;
  }

  /** Null when `value` is of one of `types`, else what is wrong with it. */
  #check(
    value: unknown,
    types: readonly string[],
    path: string,
    form: boolean,
    attached: Set<string>,
  ): string | null {
    const problems: string[] = [];
    for (const type of types) {
      const problem = this.#checkOne(value, type, path, form, attached);
      if (problem === null) return null;
      if (!problems.includes(problem)) problems.push(problem);
    }
    return types.length > 1
      ? `${path}: not any of ${types.join(", ")} (${problems.join("; ")})`
      : problems[0]!;
  }

  #checkOne(value: unknown, type: string, path: string, form: boolean, attached: Set<string>): string | null {
    const text = typeof value === "string";
    switch (type) {
      case "Integer":
        return Number.isInteger(value) || (form && text && /^-?\d+$/.test(value))
          ? null
          : `${path}: not an Integer`;
      case "Float":
        return (typeof value === "number" && Number.isFinite(value)) ||
          (form && text && value.trim() !== "" && Number.isFinite(Number(value)))
          ? null
          : `${path}: not a Float`;
      case "String":
        if (!text) return `${path}: not a String`;
        if (value.startsWith(ATTACH)) attached.add(value.slice(ATTACH.length));
        return null;
      case "Boolean":
        return typeof value === "boolean" || (form && text && /^(true|false)$/.test(value))
          ? null
          : `${path}: not a Boolean`;
      case "True":
        return value === true || (form && value === "true") ? null : `${path}: not True`;
      case "InputFile":
        return `${path}: an InputFile must be an uploaded file part`;
    }
    const parsed = form && text ? parseJson(value) : value;
    if (type.startsWith("Array of ")) {
      if (!Array.isArray(parsed)) return `${path}: not an ${type}`;
      const item = type.slice("Array of ".length);
      for (const [i, element] of parsed.entries()) {
        const problem = this.#check(element, [item], `${path}[${i}]`, false, attached);
        if (problem) return problem;
      }
      return null;
    }
    const def = this.#spec.types[type];
    if (!def) return `${path}: unknown type ${type}`;
    if (def.subtypes) return this.#check(parsed, def.subtypes, path, false, attached);
    if (!isObject(parsed)) return `${path}: not a ${type} object`;
    if (!def.fields) return null;
    const fields = new Map(def.fields.map((f) => [f.name, f]));
    for (const key of Object.keys(parsed)) {
      if (!fields.has(key)) return `${path}: ${key} is not a field of ${type}`;
    }
    for (const field of fields.values()) {
      if (!(field.name in parsed)) {
        if (field.required) return `${path}: ${type} requires ${field.name}`;
        continue;
      }
      const problem = this.#check(parsed[field.name], field.types, `${path}.${field.name}`, false, attached);
      if (problem) return problem;
    }
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
