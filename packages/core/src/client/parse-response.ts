import { z } from "zod";
import { type ErrorDetails, ResponseValidationError } from "./errors.ts";

/**
 * A successful body as the contract's schema reads it. A body that is not JSON or does not match is a
 * ResponseValidationError naming the schema and each wrong field, never a silently wrong value.
 */
export function parseResponseBody<S extends z.ZodType>(
  schema: S,
  details: ErrorDetails & { status: number; body: string },
): z.output<S> {
  const where = `${details.method} ${details.path} answered ${details.status}`;
  let json: unknown;
  try {
    json = JSON.parse(details.body);
  } catch {
    throw new ResponseValidationError(`${where} with a body that is not JSON.`, details);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ResponseValidationError(
      `${where} with a body that does not match ${schemaName(schema)}:\n${z.prettifyError(parsed.error)}`,
      details,
    );
  }
  return parsed.data;
}

function schemaName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === "string" ? `the ${id} schema` : "the expected schema";
}
