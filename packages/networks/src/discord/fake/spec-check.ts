import { OpenApiCheck } from "../../common/openapi-check.ts";

/*
 * Discord publishes its API as OpenAPI 3.1 (discord-openapi.json). The fake runs each request it
 * receives and each answer it sends through the generic OpenAPI check for the operation the request
 * matches: the request's path (after /api/v10), query and body (a multipart body's payload_json,
 * parsed), and the answer's status, headers and body.
 */

/** The fake serves the API under this prefix, as discord.com does (the description's server URL). */
export const API_PREFIX = "/api/v10";

/** One check per process: compiling the description's validators takes seconds. */
export function discordSpecCheck(): Promise<OpenApiCheck> {
  return OpenApiCheck.shared("discord-openapi.json", "Discord API description", {
    // Discord's own formats: ids are decimal strings (the pattern beside the format checks them).
    formats: ["snowflake", "nonce"],
    warmUp: ["GET", "POST"].map((method) => ({
      method,
      path: "/webhooks/1/token",
      statuses: [200, 204, 400, 429],
    })),
  });
}
