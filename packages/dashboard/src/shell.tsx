import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Api } from "./api/client.ts";
import type { CurrentUser } from "./api/types.ts";
import { App, type AppContext } from "./context.ts";
import type { NetworkRules } from "./lib/network-rules.ts";
import { PollClock } from "./lib/poll-clock.ts";
import { hrefFor, parseRoute, type Route } from "./lib/route.ts";
import { usePoll } from "./poll.ts";
import { AccountsView } from "./views/accounts.tsx";
import { AnalyticsView } from "./views/analytics.tsx";
import { ApiKeysView } from "./views/api-keys.tsx";
import { ComposeView } from "./views/compose.tsx";
import { PostDetail } from "./views/post-detail.tsx";
import { PostsView } from "./views/posts.tsx";
import { WebhooksView } from "./views/webhooks.tsx";

const NAV: { label: string; route: Route; matches: Route["view"][] }[] = [
  { label: "Posts", route: { view: "posts" }, matches: ["posts", "post"] },
  { label: "Write", route: { view: "compose" }, matches: ["compose"] },
  { label: "Webhooks", route: { view: "webhooks" }, matches: ["webhooks"] },
  { label: "Accounts", route: { view: "accounts" }, matches: ["accounts"] },
  { label: "Analytics", route: { view: "analytics" }, matches: ["analytics"] },
  { label: "Settings", route: { view: "settings" }, matches: ["settings"] },
];

/** What counts as the person using the page: it brings polling back to its shortest interval. */
const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel"] as const;

/** The page's poll clock: running while live updates are on, paused while the tab is hidden. */
function usePollClock(live: boolean): PollClock {
  const clock = useMemo(() => new PollClock(), []);
  useEffect(() => {
    const visibility = () => clock.visibilityChanged();
    const activity = () => clock.activity();
    document.addEventListener("visibilitychange", visibility);
    for (const type of ACTIVITY_EVENTS) document.addEventListener(type, activity, { passive: true });
    return () => {
      document.removeEventListener("visibilitychange", visibility);
      for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, activity);
      clock.setRunning(false);
    };
  }, [clock]);
  useEffect(() => clock.setRunning(live), [clock, live]);
  return clock;
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return route;
}

export function Shell(props: {
  api: Api;
  rules: NetworkRules;
  live: boolean;
  signedInKey: string;
  onSignOut(reason?: string): void;
}) {
  const route = useRoute();
  const [live, setLive] = useState(true);
  const [announcement, setAnnouncement] = useState("");
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  const clock = usePollClock(live);
  // The month's call count, read again on each tick; it changes with every call (this one included),
  // so it does not count as a change that keeps the clock fast.
  const me = usePoll(() => props.api.get<CurrentUser>("/me"), "me", clock, { countsAsChange: false });
  const user = me.data;

  // After a view change, focus goes to the new view's heading, as it would on a page load.
  const viewKey = JSON.stringify(route);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.querySelector<HTMLElement>("h1")?.focus();
  }, [viewKey]);

  const announce = useCallback((message: string) => {
    // Cleared first so the same message twice is read twice.
    setAnnouncement("");
    requestAnimationFrame(() => setAnnouncement(message));
  }, []);
  const { api, rules, live: liveKey, signedInKey, onSignOut } = props;
  const context = useMemo<AppContext>(
    () => ({ api, rules, live: liveKey, clock, announce, signedInKey, signOut: onSignOut }),
    [api, rules, liveKey, clock, announce, signedInKey, onSignOut],
  );

  return (
    <App.Provider value={context}>
      <button type="button" class="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <p class="brand">
          socialpub <span>{props.live ? "live" : "sandbox"}</span>
        </p>
        <nav aria-label="Views">
          <ul>
            {NAV.map((item) => (
              <li key={item.label}>
                <a
                  href={hrefFor(item.route)}
                  aria-current={item.matches.includes(route.view) ? "page" : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          {user && (
            <p>
              <span class="who">{user.name}</span> · {user.studio} · {user.plan} plan ·{" "}
              <span title="API calls this month, against the plan's allowance">
                {user.usage.api_calls_this_month.toLocaleString("en")} /{" "}
                {user.limits.api_calls_per_month.toLocaleString("en")} calls
              </span>
            </p>
          )}
          <button type="button" class="secondary" aria-pressed={live} onClick={() => setLive(!live)}>
            Live updates {live ? "on" : "off"}
          </button>
          <button type="button" class="secondary" onClick={() => props.onSignOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {route.view === "posts" && <PostsView />}
        {route.view === "post" && <PostDetail id={route.id} />}
        {route.view === "compose" && (
          <ComposeView key={route.id ?? "new"} {...(route.id && { id: route.id })} />
        )}
        {route.view === "webhooks" && <WebhooksView selected={route.id} />}
        {route.view === "accounts" && <AccountsView />}
        {route.view === "analytics" && <AnalyticsView />}
        {route.view === "settings" && <ApiKeysView />}
      </main>
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </App.Provider>
  );
}
