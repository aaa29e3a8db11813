import type { FakeAnswer } from "../../common/fake-server.ts";

/**
 * An error as X's description gives it: the problem fields (title, detail, type, status) and the
 * Error fields (code, message) its application/json answers carry.
 */
export function problem(status: number, title: string, detail: string, type: string): FakeAnswer {
  return { status, json: { title, detail, type, status, code: status, message: detail } };
}

export const INVALID_REQUEST = "https://api.twitter.com/2/problems/invalid-request";
export const NOT_FOUND = "https://api.twitter.com/2/problems/resource-not-found";

export const invalid = (detail: string) => problem(400, "Invalid Request", detail, INVALID_REQUEST);
