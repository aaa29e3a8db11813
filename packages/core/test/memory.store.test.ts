import { MemoryStore } from "../src/store/memory.ts";
import { describeStoreConformance } from "../src/testing/index.ts";

describeStoreConformance("memory", () => new MemoryStore());
