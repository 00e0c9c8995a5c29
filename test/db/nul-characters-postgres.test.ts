import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

/**
 * PostgreSQL refuses text holding a NUL character outright, so such ids used to reach it and
 * fail as 500s. An id no row can have is answered as unknown, on every route that takes one.
 */
describe("NUL characters in ids and names on PostgreSQL", () => {
  let database: TestDatabase;
  let server: TestServer;
  let org: TestOrg;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ databaseUrl: database.url });
    org = await server.createOrg("1");
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${org.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: { code: string } },
    };
  };

  it.each([
    ["GET", "/v1/files/file-abc%00"],
    ["GET", "/v1/files/%00/content"],
    ["DELETE", "/v1/files/%00"],
    ["GET", "/v1/files?after=%00"],
    ["GET", "/v1/batches/%00"],
    ["GET", "/v1/batches?after=batch_x%00"],
    ["POST", "/v1/batches/%00/cancel"],
  ])("%s %s is an unknown id (404)", async (method, path) => {
    const reply = await send(method, path);
    expect(reply.status).toBe(404);
    expect(reply.body.error?.code).toMatch(/^(file|batch)_not_found$/);
  });

  it("refuses a batch whose input file id cannot exist", async () => {
    const reply = await send("POST", "/v1/batches", {
      input_file_id: "file-\u0000",
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
    });
    expect(reply.status).toBe(404);
  });

  it("stores an uploaded file whose name holds a NUL character", async () => {
    const form = new FormData();
    form.append("purpose", "batch");
    form.append(
      "file",
      new Blob(['{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}\n']),
      "line\u0000s.jsonl",
    );
    const response = await fetch(`${server.url}/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { filename: string }).filename).toBe("lines.jsonl");
  });
});
