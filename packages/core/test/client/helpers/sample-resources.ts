import type { CurrentUser, Post } from "../../../src/contract/resources.ts";

/** Bodies shaped exactly as the contract says, for the scripted server to answer with. */
export function samplePost(overrides: Partial<Post> = {}): Post {
  return {
    id: "post_01JD3Z6Q1M8W5V0K9T2R4Y7B3D",
    caption: "Hello",
    platforms: ["x"],
    status: "published",
    has_media: false,
    scheduled_at: null,
    published_at: 1_780_000_000_000,
    reach: 0,
    engagement_rate: 0,
    ...overrides,
  };
}

export function sampleUser(): CurrentUser {
  return {
    id: "usr_01JD3Z6Q1M8W5V0K9T2R4Y7B3E",
    email: "ada@example.com",
    name: "Ada",
    studio: "Ada Studio",
    plan: "free",
    limits: { profiles: 3, posts_per_month: 30, api_calls_per_month: 1000 },
    usage: { api_calls_this_month: 1 },
  };
}
