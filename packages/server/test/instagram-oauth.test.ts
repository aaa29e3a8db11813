import { InstagramFake } from "@socialpub/networks/instagram/fake";
import { describeMetaNetwork } from "./support/meta-network-cases.ts";

describeMetaNetwork(
  {
    platform: "instagram",
    name: "Instagram",
    start: () => InstagramFake.start(),
    addresses: (fake, app, api = fake.url) => ({
      instagram: {
        apiUrl: api,
        authorizeUrl: `${fake.url}/oauth/authorize`,
        ...{ ...app, missingSettings: [] },
      },
    }),
    textOnly: false,
    videoType: "REELS",
  },
  `sp_live_${"InstagramOAuthEndToEndKey01234567".repeat(2)}`,
);
