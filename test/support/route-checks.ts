import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORESIGHT_PREFIXES } from "../../src/http/routes/v1.js";
import { expectErrorResponse, type JsonResponse, request } from "./http.js";
import { OpenApiContract } from "./openapi-contract.js";
import {
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestServerOptions,
} from "./server.js";

/** Object ids by the name of the placeholder that holds them (`file_id`). */
export type RouteIds = Record<string, string>;

/** One server for a test file's route checks: an owner, a stranger and a revoked key. */
export interface RouteSecurityServer {
  readonly server: TestServer;
  readonly contract: OpenApiContract;
  readonly owner: TestOrg;
  readonly stranger: TestOrg;
  readonly revoked: TestOrg;
}

/** Starts the server before the tests of the calling scope and stops it after them. */
export function routeSecurityServer(options: TestServerOptions = {}): RouteSecurityServer {
  let state: RouteSecurityServer | null = null;
  beforeAll(async () => {
    const server = await startTestServer(options);
    const revoked = await server.createOrg("1");
    await server.services.apiKeys.revoke(revoked.apiKeyId);
    state = {
      server,
      contract: await OpenApiContract.fetch(server.url),
      owner: await server.createOrg("5"),
      stranger: await server.createOrg("5"),
      revoked,
    };
  });
  afterAll(async () => {
    await state?.server.close();
  });
  const started = (): RouteSecurityServer => {
    if (!state) throw new Error("routeSecurityServer() is used before its beforeAll ran");
    return state;
  };
  return {
    get server() {
      return started().server;
    },
    get contract() {
      return started().contract;
    },
    get owner() {
      return started().owner;
    },
    get stranger() {
      return started().stranger;
    },
    get revoked() {
      return started().revoked;
    },
  };
}

export interface RouteSecurity {
  method: "GET" | "POST" | "DELETE";
  /** The path as /openapi.json names it, e.g. `/v1/files/{file_id}`. */
  path: string;
  /** A valid body for the owner: a FormData upload, or any other value sent as JSON. */
  body?: (ids: RouteIds) => unknown;
  /** Query parameters of the owner's request; they may name owned objects (`after`). */
  query?: (ids: RouteIds) => Record<string, string>;
  /** Creates, as `owner`, the objects the request names; returns their ids by placeholder. */
  ownedBy?: (server: TestServer, owner: TestOrg) => Promise<RouteIds>;
  /** Placeholder values that belong to no organization (a model id). */
  params?: RouteIds;
  /** Served without a key; only the response shape is checked. */
  public?: boolean;
  /** For routes kept out of /openapi.json: the media type and JSON Schema of their answer. */
  undocumented?: { contentType: RegExp; schema?: object };
}

const MALFORMED_AUTHORIZATION = [
  "Bearer",
  "Basic dXNlcjpwYXNzd29yZA==",
  `Token sk_${"A".repeat(43)}`,
  `Bearer sk_${"Z".repeat(43)}`,
  "Bearer not-a-key",
];

/**
 * An object named in the path or query cannot be served to a stranger: 404. An id in a body may
 * be accepted for a later check (a batch's input file), as long as an unknown id is too.
 */
function namesIdsInUrl(route: RouteSecurity, ids: RouteIds): boolean {
  const query = Object.values(route.query?.(ids) ?? {});
  return Object.entries(ids).some(
    ([name, id]) => route.path.includes(`{${name}}`) || query.includes(id),
  );
}

/** Keeps an id's shape and prefix but names nothing. */
const unknownLike = (id: string) => `${id.slice(0, -8)}00000000`;

function fill(path: string, ids: RouteIds): string {
  return path.replaceAll(/\{(\w+)\}/g, (_match, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return id;
  });
}

async function send(
  target: RouteSecurityServer,
  route: RouteSecurity,
  ids: RouteIds,
  authorization: string | null,
): Promise<JsonResponse> {
  const search = new URLSearchParams(route.query?.(ids) ?? {}).toString();
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const init: RequestInit = { method: route.method, headers };
  const body = route.body?.(ids);
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const path = fill(route.path, ids);
  return request(target.server.url, search ? `${path}?${search}` : path, init);
}

/** The aliases serve the `/v1/compat` routes; /openapi.json documents them there. */
function documentedPath(path: string): string {
  const alias = FORESIGHT_PREFIXES.find((prefix) => path.startsWith(`${prefix}/`));
  return alias === undefined ? path : `/v1/compat${path.slice(alias.length)}`;
}

function expectDocumented(
  target: RouteSecurityServer,
  route: RouteSecurity,
  response: JsonResponse,
): void {
  const observed = {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: response.body,
  };
  if (!route.undocumented) {
    const path = documentedPath(route.path);
    expect(target.contract.responseProblems(route.method, path, observed)).toEqual([]);
    return;
  }
  expect(observed.contentType).toMatch(route.undocumented.contentType);
  const { schema } = route.undocumented;
  if (schema) expect(target.contract.schemaProblems(schema, response.body)).toEqual([]);
}

function expectRefused(target: RouteSecurityServer, route: RouteSecurity, response: JsonResponse) {
  expectErrorResponse(response, {
    status: 401,
    code: "invalid_api_key",
    type: "authentication_error",
  });
  expectDocumented(target, route, response);
}

const errorOf = (response: JsonResponse) =>
  (response.body as { error: { code: string | null } }).error;

/**
 * The security cases every route shares: 401 without a key, with a malformed or unknown key and
 * with a revoked one; another organization's objects answered exactly like unknown ids (404 when
 * the URL names them); and the owner's answer in the shape /openapi.json documents. Public
 * routes get the last check only.
 */
export function describeRouteSecurity(target: RouteSecurityServer, route: RouteSecurity): void {
  const ownIds = async (): Promise<RouteIds> => ({
    ...route.params,
    ...(await route.ownedBy?.(target.server, target.owner)),
  });
  const bearer = (org: TestOrg) => `Bearer ${org.apiKey}`;
  const query = route.query ? ` (query ${Object.keys(route.query({})).join(", ")})` : "";

  describe(`${route.method} ${route.path}${query} security`, () => {
    it(
      route.public ? "answers without a key, as documented" : "answers its owner as documented",
      async () => {
        const authorization = route.public ? null : bearer(target.owner);
        const response = await send(target, route, await ownIds(), authorization);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expectDocumented(target, route, response);
      },
    );
    if (route.public) return;

    it("refuses a request without a key (401)", async () => {
      expectRefused(target, route, await send(target, route, await ownIds(), null));
    });

    it("refuses malformed and unknown keys (401)", async () => {
      const ids = await ownIds();
      for (const authorization of [...MALFORMED_AUTHORIZATION, `${bearer(target.owner)}x`]) {
        expectRefused(target, route, await send(target, route, ids, authorization));
      }
    });

    it("refuses a revoked key (401)", async () => {
      const response = await send(target, route, await ownIds(), bearer(target.revoked));
      expectRefused(target, route, response);
    });

    if (!route.ownedBy) return;
    it("answers another organization's ids exactly as unknown ones (404 in the URL)", async () => {
      const ids = await ownIds();
      const foreign = await send(target, route, ids, bearer(target.stranger));
      const unknownIds = Object.fromEntries(
        Object.entries(ids).map(([name, id]) => [name, route.params?.[name] ?? unknownLike(id)]),
      );
      const unknown = await send(target, route, unknownIds, bearer(target.stranger));
      expect(foreign.status).toBe(unknown.status);
      if (namesIdsInUrl(route, ids)) expect(foreign.status).toBe(404);
      if (foreign.status >= 400) {
        expectErrorResponse(foreign, { status: unknown.status, code: errorOf(unknown).code });
        // The message names the id asked for; nothing else may tell the two apart.
        expect({ ...errorOf(foreign), message: "" }).toEqual({ ...errorOf(unknown), message: "" });
      }
      expectDocumented(target, route, foreign);
    });
  });
}
