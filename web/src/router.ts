import { type MouseEvent, useEffect, useState } from "react";

/** Every page lives under this path; the server answers each with the same index.html. */
export const BASE = "/dashboard";

export type Route =
  | "overview"
  | "keys"
  | "usage"
  | "ledger"
  | "batches"
  | "files"
  | "reports"
  | "track-record"
  | "playground";

export const ROUTES: { route: Route; label: string }[] = [
  { route: "overview", label: "Overview" },
  { route: "keys", label: "API keys" },
  { route: "usage", label: "Usage" },
  { route: "ledger", label: "Ledger" },
  { route: "batches", label: "Batches" },
  { route: "files", label: "Files" },
  { route: "reports", label: "Evaluations" },
  { route: "track-record", label: "Track record" },
  { route: "playground", label: "Playground" },
];

export const hrefOf = (route: Route) => (route === "overview" ? `${BASE}/` : `${BASE}/${route}`);

function routeOf(pathname: string): Route {
  const segment = pathname.slice(BASE.length).replace(/^\/+|\/+$/g, "");
  return ROUTES.find((entry) => entry.route === segment)?.route ?? "overview";
}

/** The page the address bar names, following back/forward and in-page links. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(window.location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(window.location.pathname));
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return route;
}

/** An in-page link click: the page changes without a reload; modified clicks open as usual. */
export function followLink(event: MouseEvent<HTMLAnchorElement>, route: Route): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) {
    return;
  }
  event.preventDefault();
  window.history.pushState(null, "", hrefOf(route));
  window.dispatchEvent(new PopStateEvent("popstate"));
}
