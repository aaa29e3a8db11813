import { z } from "zod";
import { type ErrorDetails, ResponseValidationError } from "./errors.ts";

/**
 * A successful body as the contract's schema reads it. A body that is not JSON or does not match is a
 * ResponseValidationError naming the schema and each wrong field, never a silently wrong value.
 * `details` is called only to build that error.
 */
export function parseResponseBody<S extends z.ZodType>(
  schema: S,
  body: string,
  details: () => ErrorDetails & { status: number; body: string },
): z.output<S> {
  const where = (d: ErrorDetails) => `${d.method} ${d.path} answered ${d.status}`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const d = details();
    throw new ResponseValidationError(`${where(d)} with a body that is not JSON.`, d);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const d = details();
    throw new ResponseValidationError(
      `${where(d)} with a body that does not match ${schemaName(schema)}:\n${z.prettifyError(parsed.error)}`,
      d,
    );
  }
  return parsed.data;
}

function schemaName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === "string" ? `the ${id} schema` : "the expected schema";
}
