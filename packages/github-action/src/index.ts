// Source maps on before the rest of the Action loads: Node reads a module's map only when the module
// loads with them on, and with them a stack trace names the source's file and line, not the bundle's.
import { setSourceMapsSupport } from "node:module";

setSourceMapsSupport(true);
const { run } = await import("./main.ts");
await run();
