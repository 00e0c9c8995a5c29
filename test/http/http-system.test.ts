import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorResponse, request } from "../support/http.js";
import { parsePrometheus, sampleValue } from "../support/prometheus.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("1");
});

afterAll(async () => {
  await server?.close();
});

describe("health", () => {
  it("answers /healthz with the database reachable", async () => {
    const response = await request(server.url, "/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });
});

describe("the root", () => {
  const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  it("sends a browser to the dashboard", async () => {
    const response = await fetch(`${server.url}/`, {
      headers: { accept: BROWSER },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("dashboard/");
    expect(response.headers.get("vary")).toContain("accept");
    const followed = await fetch(`${server.url}/`, { headers: { accept: BROWSER } });
    expect(followed.url).toBe(`${server.url}/dashboard/`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("content-type")).toContain("text/html");
  });

  it.each([
    ["curl's", "*/*"],
    ["an SDK's", "application/json"],
    ["no", undefined],
    ["a refusal of HTML in an", "text/html;q=0, application/json"],
  ])(
    "tells a client with %s Accept where the dashboard, the API description and the models are",
    async (_label, accept) => {
      const response = await request(server.url, "/", {
        headers: accept === undefined ? {} : { accept },
      });
      expect(response.status).toBe(200);
      const index = response.body as Record<string, string>;
      expect(index).toMatchObject({
        object: "sibyl.index",
        dashboard: "/dashboard/",
        openapi: "/openapi.json",
        models: "/v1/models",
      });
      expect((await request(server.url, index.dashboard as string)).status).toBe(200);
      expect((await request(server.url, index.openapi as string)).status).toBe(200);
      const models = await request(server.url, index.models as string, { apiKey: org.apiKey });
      expect(models.status).toBe(200);
    },
  );
});

describe("request ids", () => {
  it("generates a fresh id for every response", async () => {
    const first = await request(server.url, "/v1/models", { apiKey: org.apiKey });
    const second = await request(server.url, "/v1/models", { apiKey: org.apiKey });
    const ids = [first, second].map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("echoes a caller's sane request id, on success and on errors", async () => {
    for (const [path, apiKey] of [
      ["/v1/models", org.apiKey],
      ["/v1/balance", undefined],
      ["/v1/no-such-route", org.apiKey],
    ] as const) {
      const response = await request(server.url, path, {
        ...(apiKey ? { apiKey } : {}),
        headers: { "x-request-id": "trace-42.a:b_c" },
      });
      expect(response.headers.get("x-request-id")).toBe("trace-42.a:b_c");
    }
  });

  it("accepts a caller's id of up to 128 characters", async () => {
    const given = "a".repeat(128);
    const response = await request(server.url, "/healthz", { headers: { "x-request-id": given } });
    expect(response.headers.get("x-request-id")).toBe(given);
  });

  it.each(["has spaces", "x".repeat(129), "<script>", "a,b", "%C3%BC", "a/b"])(
    "replaces the unsafe request id %j",
    async (given) => {
      const response = await request(server.url, "/healthz", {
        headers: { "x-request-id": given },
      });
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^req_[A-Za-z0-9]{20}$/);
    },
  );
});

describe("unknown routes", () => {
  it.each([
    ["GET", "/v1/nothing-here", ""],
    ["GET", "/v1/compat/nothing-here", ""],
    ["GET", "/v2/models", " (did you mean GET /v1/models?)"],
    ["GET", "/v1/modles", " (did you mean GET /v1/models?)"],
    ["POST", "/v1/chat/completion", " (did you mean POST /v1/chat/completions?)"],
    ["GET", "/v1/chat/completions", ": this path takes POST"],
    ["DELETE", "/v1/models", ": this path takes GET"],
    ["POST", "/v1/balance", ": this path takes GET"],
    ["PUT", "/v1/files/file-abc", ": this path takes GET or DELETE"],
    ["POST", "/", ": this path takes GET"],
  ])(
    "answers %s %s with a JSON 404 naming the route and what was likely meant",
    async (method, path, hint) => {
      const response = await request(server.url, path, { method, apiKey: org.apiKey });
      expectErrorResponse(response, {
        status: 404,
        code: "route_not_found",
        type: "invalid_request_error",
      });
      expect((response.body as { error: { message: string } }).error.message).toBe(
        `No route for ${method} ${path}${hint}.`,
      );
    },
  );
});

describe("metrics", () => {
  it("counts requests by route template and status and records latency", async () => {
    const before = parsePrometheus((await request(server.url, "/metrics")).body as string);
    const count = (route: string, status: string, samples = before) =>
      sampleValue(samples, "sibyl_http_requests_total", { method: "GET", route, status }) ?? 0;

    await request(server.url, "/v1/models", { apiKey: org.apiKey });
    await request(server.url, "/v1/models", { apiKey: org.apiKey });
    await request(server.url, "/v1/balance");
    await request(server.url, "/v1/models/secret-model-a", { apiKey: org.apiKey });
    await request(server.url, "/v1/models/secret-model-b", { apiKey: org.apiKey });
    await request(server.url, "/v1/unknown-secret-path", { apiKey: org.apiKey });

    const response = await request(server.url, "/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body as string;
    expect(text).toContain("# TYPE sibyl_http_requests_total counter");
    expect(text).toContain("# TYPE sibyl_http_request_duration_seconds histogram");
    // Raw URLs never become labels (unbounded cardinality, and they may hold ids).
    expect(text).not.toContain("secret-model");
    expect(text).not.toContain("unknown-secret-path");

    const after = parsePrometheus(text);
    expect(count("/v1/models", "200", after) - count("/v1/models", "200")).toBe(2);
    expect(count("/v1/balance", "401", after) - count("/v1/balance", "401")).toBe(1);
    expect(count("/v1/models/:model_id", "404", after) - count("/v1/models/:model_id", "404")).toBe(
      2,
    );
    expect(count("unmatched", "404", after) - count("unmatched", "404")).toBe(1);

    const labels = { method: "GET", route: "/v1/models" };
    const histogramCount = sampleValue(after, "sibyl_http_request_duration_seconds_count", labels);
    const infBucket = sampleValue(after, "sibyl_http_request_duration_seconds_bucket", {
      ...labels,
      le: "+Inf",
    });
    const sum = sampleValue(after, "sibyl_http_request_duration_seconds_sum", labels);
    expect(histogramCount).toBe(count("/v1/models", "200", after));
    expect(infBucket).toBe(histogramCount);
    expect(sum).toBeGreaterThan(0);
    const buckets = after.filter(
      (s) =>
        s.name === "sibyl_http_request_duration_seconds_bucket" &&
        s.labels.route === "/v1/models" &&
        s.labels.method === "GET",
    );
    expect(buckets.length).toBeGreaterThan(5);
    const values = buckets.map((b) => b.value);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
  });
});

describe("bad input never causes a 500", () => {
  const json = { "content-type": "application/json" };
  const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
  it.each([
    ["an empty model id", "GET", "/v1/models/", undefined, undefined],
    ["an overlong model id", "GET", `/v1/models/${"m".repeat(2000)}`, undefined, undefined],
    ["array-style query keys", "GET", "/v1/balance?limit[]=1&limit[x]=2", undefined, undefined],
    ["a broken query escape", "GET", "/v1/models?%zz=1", undefined, undefined],
    ["truncated JSON", "POST", "/v1/chat/completions", "{", json],
    ["a JSON null body", "POST", "/v1/chat/completions", "null", json],
    ["JSON nested 5000 deep", "POST", "/v1/chat/completions", deep, json],
    ["operator objects", "POST", "/v1/chat/completions", '{"model": {"$gt": ""}}', json],
    ["an XML body", "POST", "/v1/chat/completions", "<x/>", { "content-type": "application/xml" }],
    ["a text body", "POST", "/v1/chat/completions", "{}", { "content-type": "text/plain" }],
    ["control characters", "POST", "/v1/chat/completions", "\u0000\u0001", json],
  ])("%s", async (_label, method, path, body, headers) => {
    const response = await request(server.url, path, {
      method,
      apiKey: org.apiKey,
      ...(body === undefined ? {} : { body }),
      ...(headers ? { headers } : {}),
    });
    expect(response.status).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.body).toMatchObject({
        error: { message: expect.any(String), type: expect.any(String) },
      });
    }
  });

  it("answers a malformed URL escape in the error shape", async () => {
    const response = await request(server.url, "/v1/models/%E0%A4%A", { apiKey: org.apiKey });
    expectErrorResponse(response, { status: 400, code: "invalid_url" });
  });
});
