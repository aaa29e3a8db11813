import { SAMPLE_PNG } from "@socialpub/core/testing";
import { PinterestFake } from "@socialpub/networks/pinterest/fake";
import { describe, expect, it } from "vitest";
import { crashStage } from "./support/crash-stage.ts";

/*
 * A server process killed while Pinterest made a pin (the request passed on, its answer kept back by a
 * proxy) and started again on the same database does not pin again blindly: it reads the board's pins
 * back, finds the pin made from the post since it was made, and publishes the target with it. The board
 * holds exactly one pin, and the target its permalink.
 */

const LIVE_KEY = `sp_live_${"CrashWhilePinterestMadeThePin0123".repeat(2).slice(0, 64)}`;
const PINTEREST = {
  platform: "pinterest",
  prefix: "PINTEREST",
  authPath: "/oauth/",
  start: () => PinterestFake.start(),
};

describe("pinterest: a crash while the pin was made", () => {
  it("finds the pin on the board after a restart and publishes the target with it, pinning once", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(PINTEREST, LIVE_KEY, { holding: true });
    const { fake } = stage;
    const holding = stage.holding!;
    const ada = fake.addUser({ username: "ada_pins", boards: ["Sketches"] });
    fake.signIn(ada);
    let server = await stage.start();
    await stage.connect();
    const media = await stage.upload(SAMPLE_PNG, "image/png");

    // Pinterest makes the pin; its answer never comes, and the server is killed waiting for it.
    holding.holdOnly = /^\/v5\/pins$/;
    holding.hold = true;
    const caption = "Pinned through a crash\nOnce, and only once.";
    const request = stage
      .api("POST", "/posts", { caption, platforms: ["pinterest"], media })
      .catch(() => null);
    await holding.heldOne();
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    holding.hold = false;
    expect(fake.pins).toHaveLength(1);

    server = await stage.start();
    const post = await stage.published();
    expect(fake.pins).toHaveLength(1);
    expect(fake.pins[0]).toMatchObject({ title: "Pinned through a crash", description: caption });
    expect(await stage.permalink(post.id)).toBe(`https://www.pinterest.com/pin/${fake.pins[0]!.id}/`);
    expect(fake.specViolations).toEqual([]);
    await server.stop();
  });
});
