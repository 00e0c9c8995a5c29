import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorResponse, request, V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;
let revoked: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("1");
  revoked = await server.createOrg("1");
  await server.services.apiKeys.revoke(revoked.apiKeyId);
});

afterAll(async () => {
  await server?.close();
});

const ROUTES = ["/models", "/models/sibyl-baseline", "/balance"];
const CASES = V1_PREFIXES.flatMap((prefix) => ROUTES.map((route) => `${prefix}${route}`));

function expectUnauthorized(response: Awaited<ReturnType<typeof request>>): void {
  expectErrorResponse(response, {
    status: 401,
    code: "invalid_api_key",
    type: "authentication_error",
    param: null,
  });
  expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sibyl"');
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
}

describe.each(CASES)("GET %s", (path) => {
  it("answers a valid key", async () => {
    const response = await request(server.url, path, { apiKey: org.apiKey });
    expect(response.status).toBe(200);
  });

  it("accepts the scheme name in any letter case", async () => {
    const response = await request(server.url, path, {
      headers: { authorization: `bearer ${org.apiKey}` },
    });
    expect(response.status).toBe(200);
  });

  it("refuses a request without a key", async () => {
    const response = await request(server.url, path);
    expectUnauthorized(response);
    expect((response.body as { error: { message: string } }).error.message).toMatch(/Missing/);
  });

  it.each([
    "Basic dXNlcjpwYXNz",
    "Bearer",
    "Bearer ",
    "Token sk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
    "Bearer sk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG extra",
  ])("refuses the malformed header %j", async (authorization) => {
    const response = await request(server.url, path, { headers: { authorization } });
    expectUnauthorized(response);
  });

  it.each(["not-a-key", "sk_short", "sk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"])(
    "refuses the unknown key %j",
    async (key) => {
      expectUnauthorized(await request(server.url, path, { apiKey: key }));
    },
  );

  it("refuses a revoked key exactly as it refuses an unknown one", async () => {
    const response = await request(server.url, path, { apiKey: revoked.apiKey });
    expectUnauthorized(response);
    const unknown = await request(server.url, path, { apiKey: `sk_${"Z".repeat(43)}` });
    expect(response.body).toEqual(unknown.body);
  });

  it("ignores keys sent anywhere but the Authorization header", async () => {
    const inQuery = await request(server.url, `${path}?api_key=${org.apiKey}`);
    expectUnauthorized(inQuery);
    const inHeader = await request(server.url, path, { headers: { "x-api-key": org.apiKey } });
    expectUnauthorized(inHeader);
  });
});

describe("endpoints without authentication", () => {
  it.each(["/healthz", "/metrics", "/openapi.json"])("serves %s without a key", async (path) => {
    expect((await request(server.url, path)).status).toBe(200);
  });
});

describe("authentication comes before the request body", () => {
  it.each(V1_PREFIXES)(
    "answers 401, not 422, to an unauthenticated malformed body under %s",
    async (prefix) => {
      const response = await request(server.url, `${prefix}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      expectUnauthorized(response);
    },
  );
});
