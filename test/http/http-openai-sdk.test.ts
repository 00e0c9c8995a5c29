import OpenAI, { AuthenticationError, NotFoundError, UnprocessableEntityError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;
let revoked: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("3.5");
  revoked = await server.createOrg("1");
  await server.services.apiKeys.revoke(revoked.apiKeyId);
});

afterAll(async () => {
  await server?.close();
});

function client(prefix: string, apiKey = org.apiKey): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${server.url}${prefix}`, maxRetries: 0 });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

describe.each(V1_PREFIXES)("the openai SDK with baseURL %s", (prefix) => {
  it("lists models", async () => {
    const ids: string[] = [];
    for await (const model of client(prefix).models.list()) ids.push(model.id);
    expect(ids).toEqual(["sibyl-baseline", "sibyl-demo"]);
  });

  it("retrieves a model", async () => {
    const model = await client(prefix).models.retrieve("sibyl-baseline");
    expect(model).toMatchObject({ id: "sibyl-baseline", object: "model", owned_by: "sibyl" });
  });

  it("shows the 404 message, code and param of an unknown model", async () => {
    const error = await failure(client(prefix).models.retrieve("no-such-model"));
    expect(error).toBeInstanceOf(NotFoundError);
    const notFound = error as NotFoundError;
    expect(notFound.status).toBe(404);
    expect(notFound.message).toContain("The model 'no-such-model' does not exist");
    expect(notFound.code).toBe("model_not_found");
    expect(notFound.param).toBe("model_id");
    expect(notFound.requestID).toMatch(/^req_/);
  });

  it.each([
    ["an unknown key", "sk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"],
    ["a malformed key", "not-a-key"],
  ])("shows the 401 message for %s", async (_label, apiKey) => {
    const error = await failure(client(prefix, apiKey).models.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain("Invalid or revoked API key.");
    expect((error as AuthenticationError).code).toBe("invalid_api_key");
  });

  it("shows the 401 message for a revoked key", async () => {
    const error = await failure(client(prefix, revoked.apiKey).models.retrieve("sibyl-baseline"));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain("Invalid or revoked API key.");
  });

  it("reads the balance through the generic client", async () => {
    expect(await client(prefix).get("/balance")).toEqual({ balance_dollars: 3.5 });
  });

  it("shows which field failed validation in a 422", async () => {
    const error = await failure(
      client(prefix).chat.completions.create({
        model: "sibyl-baseline",
        messages: [{ role: "user", content: "Will it rain?" }],
        temperature: 3,
      }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const invalid = error as UnprocessableEntityError;
    expect(invalid.message).toContain("body.temperature: Input should be less than or equal to 2");
    expect(invalid.param).toBe("temperature");
    expect(invalid.code).toBe("validation_error");
  });
});
