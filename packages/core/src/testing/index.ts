// @socialpub/core/testing: what tests of any store or transport need to check the service.
export { provisionUser } from "../provision.ts";
export { FAKE_CLOCK_START, FakeClock } from "./fake-clock.ts";
export { SAMPLE_JPEG, SAMPLE_MP4, SAMPLE_PNG, sampleMp4Lasting } from "./media-samples.ts";
export { burstWithOneKey } from "./service/concurrency.ts";
export {
  ApiUser,
  type Harness,
  type LiveAccounts,
  type MakeServiceTarget,
  type ServiceTarget,
} from "./service/harness.ts";
export {
  describeServiceConformance,
  LIVE_GROUPS,
  type ServiceConformanceGroup,
} from "./service-conformance.ts";
export { type StoreFixture, storeFixture } from "./store-conformance/fixture.ts";
export { describeStoreConformance, type MakeStore } from "./store-conformance/index.ts";
export {
  type ReceivedRequest,
  type ReceiverAnswer,
  type Respond,
  WebhookReceiver,
} from "./webhook-receiver.ts";
