import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorResponse, V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { call, ok, type QuestionBody } from "./support/track-api.js";

interface Page {
  object: "list";
  data: QuestionBody[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

describe.each(DATABASES)("questions on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let server: TestServer;
  let org: TestOrg;

  beforeAll(async () => {
    const url = databaseUrl();
    server = await startTestServer(url ? { databaseUrl: url } : {});
    org = await server.createOrg("1");
    // Eight questions, oldest first: q0 … q7.
    for (let index = 0; index < 8; index++) {
      await ok(
        call(server.url, org.apiKey, "POST", "/v1/questions", {
          id: `q${index}`,
          text: `Question ${index}?`,
          answer_type: index % 2 === 0 ? "binary" : "multiple_choice",
          ...(index % 2 === 0 ? {} : { options: { A: "yes", B: "no", C: "maybe" } }),
          source: index < 4 ? "metaculus" : "manifold",
          tags: index % 3 === 0 ? ["economy", "2025"] : ["sports"],
          resolution_date: "2025-12-31",
        }),
      );
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string, prefix = "/v1") =>
    (await ok(call(server.url, org.apiKey, "GET", `${prefix}/questions?${query}`))).body as Page;

  it("registers a question as given", async () => {
    const created = await ok(
      call(server.url, org.apiKey, "POST", "/v1/questions", {
        id: "gdp",
        text: "Will GDP grow?",
        answer_type: "BINARY",
        source: "fred",
        tags: ["economy", "economy"],
        resolution_date: "2026-01-15T12:00:00Z",
      }),
    );
    expect(created.body).toEqual({
      id: "gdp",
      object: "question",
      text: "Will GDP grow?",
      answer_type: "binary",
      options: null,
      resolution_date: Date.UTC(2026, 0, 15, 12) / 1000,
      source: "fred",
      tags: ["economy"],
      status: "open",
      outcome: null,
      resolved_at: null,
      created_at: expect.any(Number),
    });
  });

  it("refuses a second question under the same id (409) and bad fields (422)", async () => {
    const again = await call(server.url, org.apiKey, "POST", "/v1/questions", {
      id: "q0",
      answer_type: "binary",
    });
    expectErrorResponse(again, { status: 409, code: "question_exists", param: "id" });
    expect(again.headers.get("x-should-retry")).toBe("false");
    for (const body of [
      { id: "x", answer_type: "auto" },
      { id: "x" },
      { answer_type: "binary" },
      { id: "x", answer_type: "binary", options: { a: "lower-case letter", B: "b" } },
      { id: "x", answer_type: "binary", tags: [""] },
      { id: "x", answer_type: "binary", resolution_date: "next week" },
      { id: "x", answer_type: "binary", unknown_field: 1 },
    ]) {
      const response = await call(server.url, org.apiKey, "POST", "/v1/questions", body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expectErrorResponse(response, { status: 422, code: "validation_error" });
    }
  });

  it("lists newest first in pages, under every prefix", async () => {
    for (const prefix of V1_PREFIXES) {
      const first = await list("limit=3&source=metaculus", prefix);
      expect(first.data.map((q) => q.id)).toEqual(["q3", "q2", "q1"]);
      expect(first).toMatchObject({ first_id: "q3", last_id: "q1", has_more: true });
      const second = await list(`limit=3&source=metaculus&after=${first.last_id}`, prefix);
      expect(second.data.map((q) => q.id)).toEqual(["q0"]);
      expect(second.has_more).toBe(false);
    }
  });

  it("filters by tag, answer type and status", async () => {
    expect((await list("tag=economy&limit=100")).data.map((q) => q.id)).toEqual([
      "gdp",
      "q6",
      "q3",
      "q0",
    ]);
    expect((await list("answer_type=MULTIPLE_CHOICE")).data.map((q) => q.id)).toEqual([
      "q7",
      "q5",
      "q3",
      "q1",
    ]);
    expect((await list("status=resolved")).data).toEqual([]);
    const open = await list("status=open&tag=sports&source=manifold");
    expect(open.data.map((q) => q.id)).toEqual(["q7", "q5", "q4"]);
  });

  it("answers an unknown cursor with 404 and bad filters with 422", async () => {
    const unknown = await call(server.url, org.apiKey, "GET", "/v1/questions?after=nope");
    expectErrorResponse(unknown, { status: 404, code: "question_not_found", param: "after" });
    for (const query of ["limit=0", "limit=101", "status=closed", "answer_type=auto"]) {
      const response = await call(server.url, org.apiKey, "GET", `/v1/questions?${query}`);
      expect(response.status, query).toBe(422);
    }
  });

  it("keeps each organization's questions to itself", async () => {
    const stranger = await server.createOrg("1");
    const page = (await ok(call(server.url, stranger.apiKey, "GET", "/v1/questions"))).body as Page;
    expect(page.data).toEqual([]);
    const cursor = await call(server.url, stranger.apiKey, "GET", "/v1/questions?after=q3");
    expectErrorResponse(cursor, { status: 404, code: "question_not_found" });
    await ok(
      call(server.url, stranger.apiKey, "POST", "/v1/questions", {
        id: "q0",
        answer_type: "binary",
      }),
    );
  });
});
