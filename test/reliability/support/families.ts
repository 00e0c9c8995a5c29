import * as fc from "fast-check";
import { headerSets } from "./arbitraries/headers.js";
import { multipartUploads } from "./arbitraries/multipart.js";
import { bentPaths, idSegments, type KnownIds } from "./arbitraries/paths.js";
import { queryStrings } from "./arbitraries/queries.js";
import { contentTypes, rawBodies } from "./arbitraries/raw-bodies.js";
import { nearMiss } from "./arbitraries/schema.js";
import { type FuzzRequest, printable } from "./fuzz-request.js";
import type { FuzzWorld } from "./fuzz-world.js";
import {
  bearer,
  fill,
  guideFor,
  keysOf,
  MODEL_IDS,
  ownPath,
  request,
  validBody,
} from "./route-requests.js";
import { type FuzzRoute, placeholders } from "./routes.js";

/** One kind of malformation, aimed at the routes it makes sense for. */
export interface Family {
  name: string;
  appliesTo(route: FuzzRoute): boolean;
  /** How many requests a run sends to one route. */
  runs(route: FuzzRoute): number;
  requests(route: FuzzRoute, world: FuzzWorld): fc.Arbitrary<FuzzRequest>;
}

const jsonBodies: Family = {
  name: "JSON bodies guided by the schema",
  appliesTo: (route) => route.body !== undefined && route.body !== "multipart",
  runs: (route) => (route.body === "BatchCreateRequest" ? 200 : 400),
  requests: (route, world) =>
    fc
      .tuple(
        ownPath(route, world),
        nearMiss(world.contract.component(route.body ?? ""), guideFor(world)),
      )
      .map(([path, value]) =>
        request(route.method, path, bearer(world), {
          contentType: "application/json",
          body: JSON.stringify(value),
        }),
      ),
};

const rawBodyFamily: Family = {
  name: "raw bodies and content types",
  appliesTo: (route) => route.method === "POST",
  runs: () => 100,
  requests: (route, world) =>
    fc
      .tuple(ownPath(route, world), validBody(route, world), contentTypes)
      .chain(([path, valid, contentType]) =>
        rawBodies(typeof valid?.body === "string" ? valid.body : "{}").map((body) => {
          const headers: Record<string, string> = { ...bearer(world) };
          if (contentType !== null) headers["content-type"] = contentType;
          return printable({ method: route.method, path, headers, body });
        }),
      ),
};

const multipartFamily: Family = {
  name: "multipart upload forms",
  appliesTo: (route) => route.body === "multipart",
  runs: () => 300,
  requests: (route, world) =>
    multipartUploads(world.secrets.canary).map((upload) =>
      request(route.method, route.path, bearer(world), upload),
    ),
};

const credentialsInQuery = (world: FuzzWorld) =>
  fc.constantFrom<[string, string]>(
    ["api_key", world.caller.apiKey],
    ["access_token", `sk_${world.secrets.canary}`],
    ["key", `sk_${world.secrets.canary}`],
  );

const queryFamily: Family = {
  name: "query strings",
  appliesTo: () => true,
  runs: (route) => (route.method === "GET" && !route.path.includes("{") ? 120 : 60),
  requests: (route, world) => {
    const parameters = (world.contract.operation(route.method, route.path)?.parameters ?? [])
      .filter((parameter) => parameter.in === "query")
      .map((parameter) => ({ name: parameter.name, schema: parameter.schema }));
    return fc
      .tuple(
        ownPath(route, world),
        queryStrings(parameters, guideFor(world), credentialsInQuery(world)),
        validBody(route, world),
      )
      .map(([path, query, body]) => request(route.method, `${path}${query}`, bearer(world), body));
  },
};

function idsFor(name: string, world: FuzzWorld): KnownIds {
  if (name === "file_id") return world.files;
  if (name === "batch_id") return world.batches;
  if (name === "key_id") return world.keys;
  if (name === "question_id") return world.questions;
  if (name === "calibration_id") return world.calibrations;
  return MODEL_IDS;
}

const pathFamily: Family = {
  name: "path parameters and bent paths",
  appliesTo: () => true,
  runs: (route) => (placeholders(route).length ? 160 : 40),
  requests: (route, world) => {
    const names = placeholders(route);
    const filled = fc
      .record(Object.fromEntries(names.map((name) => [name, idSegments(idsFor(name, world))])))
      .map((ids) => fill(route.path, ids));
    const paths = names.length
      ? fc.oneof(
          { weight: 4, arbitrary: filled },
          { weight: 1, arbitrary: ownPath(route, world).chain(bentPaths) },
        )
      : bentPaths(route.path);
    return fc
      .tuple(paths, validBody(route, world))
      .map(([path, body]) => request(route.method, path, bearer(world), body));
  },
};

const headerFamily: Family = {
  name: "headers",
  appliesTo: () => true,
  runs: () => 60,
  requests: (route, world) =>
    fc
      .tuple(ownPath(route, world), validBody(route, world))
      .chain(([path, body]) =>
        headerSets(keysOf(world), body?.contentType ?? null).map((headers) =>
          printable({ method: route.method, path, headers, ...(body ? { body: body.body } : {}) }),
        ),
      ),
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND", "FOO"];

const methodFamily: Family = {
  name: "other methods",
  appliesTo: () => true,
  runs: () => 20,
  requests: (route, world) =>
    fc
      .tuple(fc.constantFrom(...METHODS), ownPath(route, world), validBody(route, world))
      .map(([method, path, body]) =>
        request(method, path, bearer(world), method === "GET" || method === "HEAD" ? null : body),
      ),
};

export const FAMILIES: Family[] = [
  jsonBodies,
  rawBodyFamily,
  multipartFamily,
  queryFamily,
  pathFamily,
  headerFamily,
  methodFamily,
];
