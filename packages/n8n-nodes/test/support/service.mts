import {
  type AccountSpec,
  createService,
  MemoryStore,
  type PlanName,
  provisionUser,
  silentLogger,
} from "@socialpub/core";
import { type Credentials, N8nHttp } from "./http.mts";

export interface InProcessService {
  store: MemoryStore;
  credentials: Credentials;
  http: N8nHttp;
  /** A second user's key, to check that one user never sees another's data. */
  otherUserKey: string;
  close(): Promise<void>;
}

/**
 * The reference service in this process on the system clock, reached through its fetch handler (no
 * socket), with a user whose accounts the test chooses.
 */
export async function inProcessService(
  options: { accounts?: AccountSpec[]; plan?: PlanName } = {},
): Promise<InProcessService> {
  const store = new MemoryStore();
  const service = createService({
    store,
    logger: silentLogger,
    rateLimit: false,
    allowPrivateWebhookUrls: true,
  });
  await service.start();
  const { apiKey } = await provisionUser(store, {
    plan: options.plan ?? "studio",
    accounts: options.accounts ?? ["x", "linkedin", "bluesky"],
  });
  const other = await provisionUser(store, { plan: "free", accounts: ["x"] });
  return {
    store,
    credentials: { apiKey, baseUrl: "http://service.test/api/v1" },
    http: new N8nHttp((request) => service.fetch(request)),
    otherUserKey: other.apiKey,
    close: async () => {
      await service.close();
      await store.close();
    },
  };
}
