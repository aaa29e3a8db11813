import { z } from "zod";

/** Every error body: exactly one field. */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Messages the contract quotes word for word. */
export const CONTRACT_MESSAGES = {
  noConnectedNetwork: "Select at least one connected network.",
  invalidKey: "Invalid or revoked API key.",
  postNotFound: "Post not found.",
  notFound: "Not found.",
} as const;
