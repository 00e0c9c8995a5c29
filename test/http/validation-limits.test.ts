import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ValidationDetail } from "../../src/error-responses.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { timedPost } from "../support/timed-requests.js";

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("5");
});

afterAll(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  bytes: number;
  cpuMs: number;
  body: {
    error: { message: string; type: string; param: string | null; code: string | null };
    detail: ValidationDetail[];
  };
}

async function send(path: string, payload: unknown): Promise<Answer> {
  const reply = await timedPost(`${server.url}${path}`, org.apiKey, JSON.stringify(payload));
  return { ...reply, body: JSON.parse(reply.text) as Answer["body"] };
}

const MODEL = "sibyl-baseline";

/** Every entry in FastAPI's shape, and the OpenAI error naming the first. */
function expectValidationShape(answer: Answer): ValidationDetail[] {
  expect(answer.status).toBe(422);
  expect(answer.body.error.code).toBe("validation_error");
  expect(answer.body.error.type).toBe("invalid_request_error");
  for (const detail of answer.body.detail) {
    expect(Object.keys(detail).sort()).toEqual(
      detail.ctx === undefined
        ? ["input", "loc", "msg", "type"]
        : ["ctx", "input", "loc", "msg", "type"],
    );
  }
  const first = answer.body.detail[0] as ValidationDetail;
  expect(answer.body.error.message.startsWith(`${first.loc.join(".")}: ${first.msg}`)).toBe(true);
  return answer.body.detail;
}

describe("a 422 stays small however many problems a request has", () => {
  it("lists twenty problems and counts the rest", async () => {
    const messages = Array.from({ length: 30 }, (_, index) => index);
    const detail = expectValidationShape(
      await send("/v1/chat/completions", { model: MODEL, messages }),
    );
    expect(detail).toHaveLength(21);
    expect(detail.slice(0, 20).map((entry) => entry.loc)).toEqual(
      messages.slice(0, 20).map((index) => ["body", "messages", index]),
    );
    expect(detail[20]).toEqual({
      loc: ["body"],
      msg: "10 more problems not listed",
      type: "too_many_errors",
      input: null,
      ctx: { unlisted: 10, checked_all: true },
    });
  });

  it("says how many more problems there were in the message", async () => {
    const messages = Array.from({ length: 30 }, (_, index) => index);
    const answer = await send("/v1/chat/completions", { model: MODEL, messages });
    expect(answer.body.error.message).toBe(
      "body.messages.0: Input should be a valid dictionary or object (and 29 more problems)",
    );
  });

  it("stops at the first problem of a huge request, quickly, and says so", async () => {
    // 40,000 bad elements, within the body's value budget: at 100,000 every one was described
    // before, in a 10 MB answer after 1.6 s.
    const messages = Array.from({ length: 40_000 }, (_, index) => index);
    const answer = await send("/v1/chat/completions", { model: MODEL, messages });
    const detail = expectValidationShape(answer);
    expect(answer.cpuMs).toBeLessThan(1_000);
    expect(answer.bytes).toBeLessThan(10_000);
    expect(detail[0]?.loc).toEqual(["body", "messages", 0]);
    expect(detail.at(-1)).toMatchObject({
      loc: ["body"],
      type: "too_many_errors",
      ctx: { unlisted: 0, checked_all: false },
    });
  });

  it("shortens a huge echoed value and says how much was left out", async () => {
    const temperature = "x".repeat(1_000_000);
    const answer = await send("/v1/chat/completions", {
      model: MODEL,
      messages: [{ role: "user", content: "Q" }],
      temperature,
    });
    const detail = expectValidationShape(answer);
    expect(answer.bytes).toBeLessThan(5_000);
    expect(detail[0]?.input).toBe(`${"x".repeat(500)}… (999500 more characters)`);
  });

  it("shortens a huge echoed list to its first entries", async () => {
    const prompt = Array.from({ length: 100 }, (_, index) => index);
    const answer = await send("/v1/completions", { model: MODEL, prompt });
    const detail = expectValidationShape(answer);
    const echoed = detail.find((entry) => entry.loc.join(".") === "body.prompt")?.input;
    expect(echoed).toEqual([...prompt.slice(0, 20), "… 80 more items"]);
  });

  it("still echoes small values whole", async () => {
    const answer = await send("/v1/completions", { model: MODEL, prompt: { text: "Q" } });
    expect(expectValidationShape(answer)[0]?.input).toEqual({ text: "Q" });
  });
});
