// One of several processes filling the same cache at once (cache-install.test.mts). Each says it has
// started; the one that gets to install records that it ran, writes a file, and finishes only once
// all of them have started (and a moment more), so the others are waiting on its lock by then.
import { appendFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installOnce } from "../../../../scripts/cache-install.mts";

const [cacheDir, runsDir, count] = process.argv.slice(2) as [string, string, string];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

writeFileSync(join(runsDir, `started-${process.pid}`), "");
const result = await installOnce({
  cacheDir,
  isReady: (dir) => existsSync(join(dir, "ready")),
  install: async (dir) => {
    appendFileSync(join(runsDir, "installs"), `${process.pid}\n`);
    writeFileSync(join(dir, "payload"), "complete");
    const deadline = Date.now() + 10_000;
    while (readdirSync(runsDir).filter((name) => name.startsWith("started-")).length < Number(count)) {
      if (Date.now() > deadline) throw new Error("the other processes did not start");
      await sleep(20);
    }
    await sleep(300);
    writeFileSync(join(dir, "ready"), "");
  },
  pollMs: 50,
});
console.log(result);
