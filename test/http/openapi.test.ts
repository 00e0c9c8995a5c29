import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security?: unknown[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let server: TestServer;
let org: TestOrg;
let document: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer({ config: { server: { public_url: "https://sibyl.test" } } });
  org = await server.createOrg("2");
  const response = await request(server.url, "/openapi.json");
  expect(response.status).toBe(200);
  document = response.body as OpenApiDocument;
});

afterAll(async () => {
  await server?.close();
});

const FOUNDATION_PATHS = ["/models", "/models/{model_id}", "/balance"];

describe("/openapi.json", () => {
  it("is an OpenAPI 3.1.0 document at version 1.0.0", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(document.info.title).toBe("Sibyl");
    expect(document.servers).toEqual([{ url: "https://sibyl.test" }]);
  });

  it("passes the OpenAPI validator", async () => {
    const copy = structuredClone(document) as unknown as Parameters<typeof validate>[0];
    const result = await validate(copy);
    expect(result.valid ? "valid" : compileErrors(result)).toBe("valid");
  });

  it.each(["/v1", "/v1/compat"])("describes the model and balance routes under %s", (prefix) => {
    for (const path of FOUNDATION_PATHS) {
      const operation = document.paths[`${prefix}${path}`]?.get;
      expect(operation, `${prefix}${path}`).toBeDefined();
      for (const status of ["200", "401"]) {
        expect(operation?.responses[status], `${prefix}${path} ${status}`).toBeDefined();
      }
    }
    const retrieve = document.paths[`${prefix}/models/{model_id}`]?.get;
    expect(retrieve?.parameters).toEqual([
      expect.objectContaining({ name: "model_id", in: "path", required: true }),
    ]);
    expect(retrieve?.responses["404"]).toBeDefined();
  });

  it("keeps operational endpoints and internal route forms out", () => {
    const paths = Object.keys(document.paths);
    for (const hidden of ["/healthz", "/metrics", "/openapi.json"]) {
      expect(paths).not.toContain(hidden);
    }
    expect(paths.filter((p) => p.includes("*"))).toEqual([]);
  });

  it("declares bearer authentication for the API", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it("matches what the routes really send", async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: "openapi.json", components: document.components });
    const check = async (path: string, status: string, apiKey?: string) => {
      const response = await request(server.url, `/v1${path}`, apiKey ? { apiKey } : {});
      expect(response.status).toBe(Number(status));
      const route = path.startsWith("/models/") ? "/models/{model_id}" : path;
      const schema = document.paths[`/v1${route}`]?.get?.responses[status]?.content?.[
        "application/json"
      ]?.schema as { $ref: string };
      const validator = ajv.compile({ $ref: `openapi.json${schema.$ref}` });
      expect(validator(response.body) ? [] : validator.errors).toEqual([]);
    };
    await check("/models", "200", org.apiKey);
    await check("/models/sibyl-baseline", "200", org.apiKey);
    await check("/models/unknown", "404", org.apiKey);
    await check("/balance", "200", org.apiKey);
    await check("/balance", "401");
  });
});
