import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/*
 * The networks' machine-readable API descriptions, kept in the repository under
 * packages/networks/specs/ (gzipped, each with its licence; specs/README.md names each one's source and
 * commit). The fakes check every request and answer against them, so a clone of the repository alone
 * runs every test. SOCIALPUB_NETWORK_SPECS names another folder to read them from (for trying a newer
 * description before replacing the vendored one), plain or gzipped.
 */

const SPECS_ENV = "SOCIALPUB_NETWORK_SPECS";
const VENDORED = join(import.meta.dirname, "..", "..", "specs");

/** Where the description `file` is looked for, in order: plain, then gzipped. */
export function specCandidates(file: string): string[] {
  const dir = process.env[SPECS_ENV] || VENDORED;
  return [join(dir, file), join(dir, `${file}.gz`)];
}

/**
 * Reads and parses a network's API description (discord-openapi.json, telegram-bot-api.json): a new
 * object each call, since its users (openapi-backend, typedNullables) change the tree they are given.
 */
export function readNetworkSpec(file: string): unknown {
  const candidates = specCandidates(file);
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `The network API description ${file} was not found (looked in ${candidates.join(", ")}). ` +
        `The repository keeps them in packages/networks/specs/; unset ${SPECS_ENV} to read those, or ` +
        `put ${file} in the folder it names.`,
    );
  }
  const bytes = readFileSync(found);
  return JSON.parse((found.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
}

/** The scopes an OpenAPI description's authorization-code OAuth scheme names (the ones its fake knows). */
export function oauthScopesOf(file: string, scheme: string): string[] {
  const spec = readNetworkSpec(file) as {
    components?: {
      securitySchemes?: Record<string, { flows?: { authorizationCode?: { scopes?: object } } }>;
    };
  };
  const scopes = spec.components?.securitySchemes?.[scheme]?.flows?.authorizationCode?.scopes;
  if (!scopes) throw new Error(`${file} names no authorization-code scopes for ${scheme}`);
  return Object.keys(scopes);
}

interface SecuredOperation {
  security?: Record<string, string[]>[];
}

/**
 * The scopes each operation of an OpenAPI description requires of the OAuth scheme `scheme` (its
 * `security` entry for that scheme, or the description's own when the operation has none): a lookup by
 * method and path as the description writes them without its server's prefix ("/pins",
 * "/boards/123/pins"). It answers null for an operation the description lacks or that `scheme` does not
 * cover. The fakes refuse a token lacking any of them, as the network does.
 */
export function operationScopesOf(
  file: string,
  scheme: string,
): (method: string, path: string) => string[] | null {
  const spec = readNetworkSpec(file) as {
    security?: Record<string, string[]>[];
    paths?: Record<string, Record<string, SecuredOperation>>;
  };
  const routes: { method: string; pattern: RegExp; literal: boolean; scopes: string[] | null }[] = [];
  for (const [template, operations] of Object.entries(spec.paths ?? {})) {
    const pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}$`,
    );
    for (const [method, operation] of Object.entries(operations)) {
      const security = operation.security ?? spec.security ?? [];
      const entry = security.find((requirement) => scheme in requirement);
      routes.push({
        method: method.toUpperCase(),
        pattern,
        literal: !template.includes("{"),
        scopes: entry ? [...entry[scheme]!] : null,
      });
    }
  }
  // A path without parameters wins over a template that also matches it (/2/tweets/search, /2/tweets/{id}).
  routes.sort((a, b) => Number(b.literal) - Number(a.literal));
  return (method, path) => {
    const route = routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
    return route?.scopes ?? null;
  };
}
