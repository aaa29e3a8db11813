/** The page's views; the address keeps the view in its hash so reloads and the back button work. */
export type Route =
  | { view: "posts" }
  | { view: "post"; id: string }
  | { view: "compose"; id?: string }
  | { view: "webhooks"; id?: string }
  | { view: "accounts" }
  | { view: "analytics" }
  | { view: "settings" };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    case "posts":
      return parts[1] ? { view: "post", id: parts[1] } : { view: "posts" };
    case "webhooks":
      return parts[1] ? { view: "webhooks", id: parts[1] } : { view: "webhooks" };
    case "compose":
      return parts[1] ? { view: "compose", id: parts[1] } : { view: "compose" };
    case "accounts":
    case "sandbox": // the view's former name, so old bookmarks still open it
      return { view: "accounts" };
    case "analytics":
      return { view: "analytics" };
    case "settings": // #/settings and #/settings/api-keys: API keys is its one section
      return { view: "settings" };
    default:
      return { view: "posts" };
  }
}

export function hrefFor(route: Route): string {
  switch (route.view) {
    case "post":
      return `#/posts/${encodeURIComponent(route.id)}`;
    case "webhooks":
      return route.id ? `#/webhooks/${encodeURIComponent(route.id)}` : "#/webhooks";
    case "compose":
      return route.id ? `#/compose/${encodeURIComponent(route.id)}` : "#/compose";
    default:
      return `#/${route.view}`;
  }
}
