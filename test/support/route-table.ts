import type { HTTPMethods } from "fastify";
import type { App } from "../../src/app.js";

export interface ServedRoute {
  method: string;
  /** As Fastify names it: `/v1/files/:file_id`, `/dashboard/*`. */
  url: string;
}

/** A line of `printRoutes({ commonPrefix: false })`: its depth, path piece and methods. */
const LINE = /^((?:│ {3}| {4})*)[└├]── (.+) \(([A-Z, ]+)\)$/;

/**
 * Every route the app serves, but HEAD (Fastify adds it beside each GET), read from Fastify's
 * printed route tree: a piece starting with `/` or `*` extends its parent's path, any other one
 * is a new segment below it. Each route read is checked with `hasRoute`, so a misread fails.
 */
export function routeTable(app: App): ServedRoute[] {
  const parents: string[] = [];
  const routes: ServedRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, indent = "", piece = "", methods = ""] = match;
    const depth = indent.length / 4;
    const parent = parents[depth - 1] ?? "";
    const joined = piece.startsWith("/") ? piece : `/${piece}`;
    const url = depth === 0 ? piece : `${parent === "/" ? "" : parent}${joined}`;
    parents[depth] = url;
    parents.length = depth + 1;
    for (const method of methods.split(", ").filter((name) => name !== "HEAD")) {
      if (!app.hasRoute({ method: method as HTTPMethods, url })) {
        throw new Error(`read ${method} ${url} from the route tree, which the app does not serve`);
      }
      routes.push({ method, url });
    }
  }
  return routes;
}
