import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { discordAdapter } from "../src/discord/adapter.ts";
import { telegramAdapter } from "../src/telegram/adapter.ts";

/*
 * The adapters trim the trailing slashes of the API and web addresses they are configured with. That
 * must cost in proportion to the address: a long run of slashes followed by something else is the shape
 * that made `/\/+$/` rescan the run from each of its slashes. Each check times 10,000 and 20,000
 * slashes in one run.
 */

const SIZES = { small: 10_000, large: 20_000 };
const address = (n: number) => `http://127.0.0.1:1/${"/".repeat(n)}api`;

describe("configuring an adapter with a long address is linear in its length", () => {
  it("telegram's API address, discord's API and web addresses", () => {
    const urls = { small: address(SIZES.small), large: address(SIZES.large) };
    const slow: string[] = [];
    for (const [name, make] of Object.entries({
      telegram: (url: string) => telegramAdapter({ apiUrl: url }),
      "discord api": (url: string) => discordAdapter({ apiUrl: url }),
      "discord web": (url: string) => discordAdapter({ webUrl: url }),
    })) {
      const measured = growth((size) => make(urls[size]));
      if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(name, measured));
    }
    expect(slow).toEqual([]);
  }, 120_000);
});
