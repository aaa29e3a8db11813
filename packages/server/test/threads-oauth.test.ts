import { ThreadsFake } from "@socialpub/networks/threads/fake";
import { describeMetaNetwork } from "./support/meta-network-cases.ts";

describeMetaNetwork(
  {
    platform: "threads",
    name: "Threads",
    start: () => ThreadsFake.start(),
    addresses: (fake, app, api = fake.url) => ({
      threads: {
        apiUrl: api,
        authorizeUrl: `${fake.url}/oauth/authorize`,
        ...{ ...app, missingSettings: [] },
      },
    }),
    textOnly: true,
    videoType: "VIDEO",
  },
  `sp_live_${"ThreadsOAuthEndToEndKey0123456789".repeat(2).slice(0, 64)}`,
);
