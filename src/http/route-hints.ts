import type { FastifyInstance } from "fastify";
import { editDistance } from "../util/nearest.js";

interface KnownRoute {
  methods: readonly string[];
  url: string;
  pattern: RegExp;
}

/** Paths longer than this get no suggestion: comparing them would cost more than it helps. */
const LONGEST_COMPARED_PATH = 200;

/**
 * Records every route the app serves, and returns how to tell a request that matched none what
 * it may have meant: the methods its path takes, or the path one or two typos away.
 */
export function routeHints(app: FastifyInstance): (method: string, path: string) => string {
  const routes: KnownRoute[] = [];
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat().filter((name) => name !== "HEAD");
    if (methods.length > 0) routes.push({ methods, url: route.url, pattern: patternOf(route.url) });
  });
  return (method, path) => `No route for ${method} ${path}${hintFor(routes, method, path)}.`;
}

function hintFor(routes: readonly KnownRoute[], method: string, path: string): string {
  const methods = new Set(
    routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods),
  );
  if (methods.size > 0) return `: this path takes ${[...methods].join(" or ")}`;
  if (path.length > LONGEST_COMPARED_PATH) return "";
  let best: { url: string; distance: number } | null = null;
  for (const route of routes) {
    if (!route.methods.includes(method) || /[:*]/.test(route.url)) continue;
    const distance = editDistance(path, route.url);
    if (distance <= 2 && (best === null || distance < best.distance)) {
      best = { url: route.url, distance };
    }
  }
  return best === null ? "" : ` (did you mean ${method} ${best.url}?)`;
}

/** `/v1/files/:file_id` as a pattern matching `/v1/files/file-abc`. */
function patternOf(url: string): RegExp {
  const escaped = url
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) return "[^/]+";
      if (segment === "*") return ".*";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${escaped}$`);
}
