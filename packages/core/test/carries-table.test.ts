import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { carriesTable } from "../src/contract/carries-table.ts";

describe("docs/networks.md", () => {
  it("says what each network carries exactly as the rules the service enforces (node packages/core/scripts/carries-table.ts)", () => {
    const page = readFileSync(new URL("../../../docs/networks.md", import.meta.url), "utf8");
    expect(page).toContain(carriesTable());
  });
});
