import { describe, expect, it } from "vitest";
import { requestIdFor } from "../src/http/request-id.ts";

const ULID_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

describe("request ids the server gives itself", () => {
  it("follow the service's rule: a sane inbound id is echoed, else a req_ + ULID is made", () => {
    expect(requestIdFor("trace-123.abc_XYZ")).toBe("trace-123.abc_XYZ");
    expect(requestIdFor(["first-id", "second-id"])).toBe("first-id");
    for (const bad of [undefined, "", "has space", "x".repeat(129), "semi;colon", []]) {
      expect(requestIdFor(bad)).toMatch(ULID_ID);
    }
  });

  it("are time-sortable like the service's, so log lines of both sort together", () => {
    const first = requestIdFor(undefined);
    const second = requestIdFor(undefined);
    expect(first < second).toBe(true);
  });
});
