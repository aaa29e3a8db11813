import { readdirSync } from "node:fs";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FileMediaStorage } from "../src/media/file-media-storage.ts";
import { type ServerProcess, startServerProcess, TEST_KEY } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
  for (const dir of dirs.splice(0)) dir.remove();
});
function newDir() {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

const PNG = SAMPLE_PNG;

describe("file media storage", () => {
  it("gives back the bytes and type it was given", async () => {
    const storage = new FileMediaStorage(newDir().file("media"));
    const path = await storage.put("med_01ABC", PNG.slice(), "image/png");
    expect(path).toMatch(/media\/med_01ABC$/);
    const found = await storage.get("med_01ABC");
    expect(found?.type).toBe("image/png");
    expect([...found!.bytes]).toEqual([...PNG]);
    expect(await storage.get("med_01UNKNOWN")).toBeNull();
  });

  it("never touches a path outside its folder, whatever id it is asked for", async () => {
    const dir = newDir();
    const storage = new FileMediaStorage(dir.file("media"));
    await storage.put("med_01ABC", PNG.slice(), "image/png");
    for (const id of ["../media/med_01ABC", "med_01ABC/../med_01ABC", "med_01ABC.type", "/etc/passwd", ""]) {
      expect(await storage.get(id)).toBeNull();
    }
    await expect(storage.put("../escape", PNG.slice(), "image/png")).rejects.toThrow(/Not a media id/);
    expect(readdirSync(dir.path)).toEqual(["media"]);
  });
});

describe("uploaded media in the server process", () => {
  it("are kept beside the database and served after a restart", async () => {
    const dir = newDir();
    const args = ["--dev", "--dev-key", TEST_KEY, "--db", dir.file("media.db"), "--log-level", "warn"];
    let server = await startServerProcess(args);
    servers.push(server);
    const res = await fetch(`${server.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "image/png" },
      body: PNG,
    });
    expect(res.status).toBe(201);
    const media = await res.json();
    expect(media).toMatchObject({ type: "image/png", size: PNG.length, status: "ready" });
    const token = new URL(media.url).pathname.split("/").at(-1);
    expect(readdirSync(dir.file("media"))).toEqual([`${media.id}_${token}`, `${media.id}_${token}.type`]);

    await server.stop("SIGKILL");
    server = await startServerProcess(args);
    servers.push(server);
    const content = await fetch(`${server.url}${new URL(media.url).pathname}`);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect([...new Uint8Array(await content.arrayBuffer())]).toEqual([...PNG]);
    // By id, only with the owner's key.
    expect((await fetch(`${server.url}/api/v1/media/${media.id}/content`)).status).toBe(401);
    const own = await fetch(`${server.url}/api/v1/media/${media.id}/content`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect([...new Uint8Array(await own.arrayBuffer())]).toEqual([...PNG]);
  });
});
