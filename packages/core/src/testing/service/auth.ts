import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { generateApiKey } from "../../keys.ts";
import { BASE, type Harness, send } from "./harness.ts";

export function authTests(h: Harness): void {
  describe("authentication", () => {
    const refused = async (headers: Record<string, string>) => {
      const res = await send(h.target, new Request(`${BASE}/me`, { headers }));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: CONTRACT_MESSAGES.invalidKey });
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    };

    it("a missing key answers 401 Invalid or revoked API key.", async () => {
      await refused({});
    });

    it("a malformed key answers 401", async () => {
      await refused({ authorization: "Bearer not-a-key" });
      await refused({ authorization: "Basic dXNlcjpwYXNz" });
      await refused({ authorization: "Bearer" });
    });

    it("an unknown well-formed key answers 401", async () => {
      await refused({ authorization: `Bearer ${generateApiKey()}` });
    });

    it("a revoked key answers 401", async () => {
      const user = await h.user();
      const [key] = await h.store.listKeys(user.id);
      expect(await h.store.revokeKey(key!.id, h.clock.now())).toBe(true);
      await refused({ authorization: `Bearer ${user.apiKey}` });
    });

    it("the bearer scheme is case-insensitive", async () => {
      const user = await h.user();
      const res = await send(
        h.target,
        new Request(`${BASE}/me`, { headers: { authorization: `bearer ${user.apiKey}` } }),
      );
      expect(res.status).toBe(200);
    });

    it("every operation of the contract requires a key", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "hi", platforms: ["x"] });
      for (const [method, path] of [
        ["GET", "/me"],
        ["POST", "/posts"],
        ["GET", "/posts"],
        ["GET", `/posts/${post.id}`],
        ["DELETE", `/posts/${post.id}`],
        ["GET", "/accounts"],
        ["GET", "/analytics"],
      ] as const) {
        const res = await user.request(method, path, { anonymous: true });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: CONTRACT_MESSAGES.invalidKey });
      }
      expect((await user.get(`/posts/${post.id}`)).status).toBe(200);
    });
  });
}
