import { LINKEDIN_DEFAULT_SCOPES } from "@socialpub/networks";
import { FacebookFake } from "@socialpub/networks/facebook/fake";
import { LinkedInFake } from "@socialpub/networks/linkedin/fake";
import { RedditFake } from "@socialpub/networks/reddit/fake";
import { XFake } from "@socialpub/networks/x/fake";
import { describe, expect, it } from "vitest";
import { appSettings } from "./support/live-oauth-server.ts";
import { connectIn, lostAnswerCases, lostAnswerStage } from "./support/lost-answer-cases.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";
import { grantOnXConsentPage } from "./support/x-consent.ts";

/*
 * Never twice, on the OAuth networks that take no key of ours: a server behind its public address
 * publishes through a proxy in front of each network's fake that keeps back the request making the
 * post, so the attempt ends with its outcome unknown. The retry reads the account's recent posts back
 * from the network (support/lost-answer-cases.ts): a post made with its answer lost is found and the
 * target published with it; a request that never arrived is sent again. Either way the network holds
 * the post once.
 */

const LIVE_KEY = `sp_live_${"LostAnswersOnOAuthNetworks012345".repeat(2)}`;

describe("X: an answer lost is looked for on the account's timeline", () => {
  const s = lostAnswerStage(
    LIVE_KEY,
    async () => {
      const x = await XFake.start();
      x.signIn(x.addUser({ username: "lost_answers" }));
      return x;
    },
    (x, api) => ({
      x: { apiUrl: api, authorizeUrl: `${x.url}/i/oauth2/authorize`, ...appSettings(x.addApp()) },
    }),
    (live) => connectIn(live, "x", grantOnXConsentPage),
  );
  const cases = lostAnswerCases(
    {
      platform: "x",
      creates: /^\/2\/tweets$/,
      // A link, a bare domain and ampersands, which X's timeline gives back wrapped (t.co, the domain
      // with a scheme) and escaped (&amp;).
      caption: (label) => `${label} & the notes: https://example.com/notes?a=1&b=2 or example.org`,
      postsFrom: (caption) =>
        s.fake.posts.filter((p) => p.text === caption).map((p) => `https://x.com/i/web/status/${p.id}`),
      readBacks: () => s.fake.timelineReads.length,
    },
    () => s.live,
    () => s.proxy,
  );
  for (const c of Object.values(cases)) it(c.name, c.run, 60_000);

  it("reads the timeline as X documents it, from when the post could have been made", () => {
    expect(s.fake.timelineReads.length).toBeGreaterThan(0);
    for (const read of s.fake.timelineReads) {
      expect(read).toMatchObject({ max_results: "100", exclude: "replies,retweets" });
      expect(Date.now() - Date.parse(read.start_time!)).toBeLessThan(5 * 60_000);
    }
    expect(s.fake.specViolations).toEqual([]);
  });
});

/** LinkedIn's commentary as the member wrote it: the little-text escapes taken off. */
const unescaped = (commentary: string) => commentary.replace(/\\(.)/g, "$1");

describe("LinkedIn: an answer lost is looked for among the member's posts", () => {
  const s = lostAnswerStage(
    LIVE_KEY,
    async () => {
      const linkedin = await LinkedInFake.start();
      linkedin.signIn(linkedin.addMember({ name: "Lost Answers" }));
      return linkedin;
    },
    (linkedin, api) => ({
      linkedin: {
        apiUrl: api,
        authorizeUrl: linkedin.url,
        ...appSettings(linkedin.addApp()),
        // Reading a member's posts back takes r_member_social, which LinkedIn grants to approved apps.
        scopes: [...LINKEDIN_DEFAULT_SCOPES, "r_member_social"],
      },
    }),
    (live) => connectIn(live, "linkedin"),
  );
  const cases = lostAnswerCases(
    {
      platform: "linkedin",
      creates: /^\/rest\/posts$/,
      // Characters LinkedIn's little text reserves: the post keeps them escaped.
      caption: (label) => `${label} (beta) #launch`,
      postsFrom: (caption) =>
        s.fake.posts
          .filter((p) => unescaped(p.commentary) === caption)
          .map((p) => `https://www.linkedin.com/feed/update/${p.urn}/`),
      readBacks: () => s.fake.finderReads.length,
    },
    () => s.live,
    () => s.proxy,
  );
  for (const c of Object.values(cases)) it(c.name, c.run, 60_000);

  it("without r_member_social the post is not sent again: the target fails as outcome unknown, saying why", async () => {
    for (const grant of s.fake.oauth.grants)
      grant.scopes = grant.scopes.filter((g) => g !== "r_member_social");
    s.proxy.held.splice(0);
    s.proxy.holdOnly = /^\/rest\/posts$/;
    s.proxy.hold = true;
    const caption = `Not allowed to look ${Date.now()}`;
    const posted = s.live.call("POST", "/posts", { caption, platforms: ["linkedin"] });
    await s.proxy.heldOne();
    s.proxy.hold = false;
    const { body } = await posted;
    const target = await until(
      async () => (await s.live.call("GET", `/posts/${body.id}/targets`)).body.data[0],
      (t) => t.status === "published" || t.status === "failed",
    );
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(
      /^LinkedIn: outcome unknown: check the network \(LinkedIn does not let this app read the member's posts back .*r_member_social.*SOCIALPUB_LINKEDIN_SCOPES.*it was not sent again/,
    );
    expect(s.fake.posts.filter((p) => p.commentary === caption)).toHaveLength(1);
  });
});

describe("Facebook: an answer lost is looked for among the Page's posts", () => {
  const s = lostAnswerStage(
    LIVE_KEY,
    async () => {
      const facebook = await FacebookFake.start();
      facebook.signIn(facebook.addUser({ name: "Lost Answers", pages: [{ name: "Lost Answers Bakery" }] }));
      return facebook;
    },
    (facebook, api) => ({
      facebook: { apiUrl: api, authorizeUrl: facebook.url, ...appSettings(facebook.addApp()) },
    }),
    (live) => connectIn(live, "facebook"),
  );
  const cases = lostAnswerCases(
    {
      platform: "facebook",
      // A text post (the feed), a photo and a video: a caption and a description are the post's message.
      creates: /^\/v23\.0\/\d+\/(feed|photos|videos)$/,
      caption: (label) => `${label}: bread & rolls`,
      postsFrom: (caption) =>
        s.fake.posts
          .filter((p) => p.message === caption)
          .map((p) =>
            p.video
              ? `https://www.facebook.com/${p.pageId}/videos/${p.id}/`
              : `https://www.facebook.com/${p.id}`,
          ),
      readBacks: () => s.fake.postReads.length,
      video: sampleVideo(60 * 1024),
    },
    () => s.live,
    () => s.proxy,
  );
  for (const c of Object.values(cases)) it(c.name, c.run, 60_000);
});

describe("Reddit: an answer lost is looked for among the account's submitted posts", () => {
  const s = lostAnswerStage(
    LIVE_KEY,
    async () => {
      const reddit = await RedditFake.start();
      reddit.signIn(reddit.addUser({ name: "lost_answers" }));
      reddit.addSubreddit({ name: "socialpub", submissionType: "any", subscribers: 10 });
      return reddit;
    },
    (reddit, api) => ({
      reddit: {
        apiUrl: api,
        authorizeUrl: reddit.url,
        userAgent: "server:socialpub-tests:0.1.0 (by /u/socialpub_ci)",
        ...appSettings(reddit.addApp()),
      },
    }),
    async (live) => {
      const started = await live.call("POST", "/accounts/connect", {
        platform: "reddit",
        subreddit: "socialpub",
      });
      expect((await grantInBrowser(started.body.authorize_url)).status).toBe(200);
    },
  );
  const cases = lostAnswerCases(
    {
      platform: "reddit",
      creates: /^\/api\/submit$/,
      // The first line is the title, the rest the body (an image post keeps the title only).
      caption: (label) => `${label}\nThe body, & <more>.`,
      postsFrom: (caption) => {
        const [title, body] = caption.split("\n");
        return s.fake.posts
          .filter((p) => p.title === title && (p.kind === "image" || p.text === body))
          .map((p) => `https://www.reddit.com${p.permalink}`);
      },
      readBacks: () => s.fake.submittedReads.length,
    },
    () => s.live,
    () => s.proxy,
  );
  for (const c of Object.values(cases)) it(c.name, c.run, 60_000);

  it("a link post is found by its address", async () => {
    const link = lostAnswerCases(
      {
        platform: "reddit",
        creates: /^\/api\/submit$/,
        caption: (label) => `${label}\nhttps://example.com/notes?a=1&b=2`,
        postsFrom: (caption) => {
          const [title, url] = caption.split("\n");
          return s.fake.posts
            .filter((p) => p.kind === "link" && p.title === title && p.url === url)
            .map((p) => `https://www.reddit.com${p.permalink}`);
        },
        readBacks: () => s.fake.submittedReads.length,
      },
      () => s.live,
      () => s.proxy,
    );
    await link.made.run();
  });

  it("the same title and body in another subreddit is not the lost post: it is sent again", async () => {
    const caption = `Posted elsewhere ${Date.now()}\nThe same body.`;
    const [title, body] = caption.split("\n") as [string, string];
    const user = [...s.fake.users.values()][0]!;
    s.fake.addSubreddit({ name: "elsewhere", submissionType: "any", subscribers: 1 });
    s.fake.posts.push({
      id: "elsewhere1",
      userId: user.id,
      subreddit: "elsewhere",
      kind: "self",
      title,
      text: body,
      url: null,
      permalink: "/r/elsewhere/comments/elsewhere1/post/",
      createdAt: Date.now(),
      score: 1,
      comments: 0,
      crossposts: 0,
    });
    const elsewhere = lostAnswerCases(
      {
        platform: "reddit",
        creates: /^\/api\/submit$/,
        caption: () => caption,
        postsFrom: () =>
          s.fake.posts
            .filter((p) => p.subreddit === "socialpub" && p.title === title && p.text === body)
            .map((p) => `https://www.reddit.com${p.permalink}`),
        readBacks: () => s.fake.submittedReads.length,
      },
      () => s.live,
      () => s.proxy,
    );
    await elsewhere.neverSent.run();
  });
});
