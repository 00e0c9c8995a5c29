import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    choices?: unknown[];
    error?: { message: string; param: string | null; code: string | null };
  };
}

async function complete(payload: Record<string, unknown>): Promise<Answer> {
  const reply = await timedPost(
    `${server.url}/v1/completions`,
    org.apiKey,
    JSON.stringify({ model: "sibyl-baseline", ...payload }),
  );
  return { ...reply, body: JSON.parse(reply.text) as Answer["body"] };
}

const prompts = (count: number) =>
  Array.from({ length: count }, (_, index) => `Will event ${index} happen?`);

describe("the number of choices a request may ask for", () => {
  it("refuses 2,000 prompts before any work, quickly and briefly", async () => {
    // Answered before with 128,000 choices: 36 MB after seconds of a blocked server.
    const answer = await complete({ prompt: prompts(2_000), n: 64 });
    expect(answer.status).toBe(422);
    expect(answer.cpuMs).toBeLessThan(1_000);
    expect(answer.bytes).toBeLessThan(5_000);
    expect(answer.body.error?.message).toBe("body.prompt: List should have at most 128 items");
  });

  it("refuses n times the prompts beyond 128 choices with a clear 400", async () => {
    const answer = await complete({ prompt: prompts(3), n: 64 });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe("too_many_choices");
    expect(answer.body.error?.param).toBe("n");
    expect(answer.body.error?.message).toContain("192 choices");
    expect(answer.body.error?.message).toContain("at most 128");
  });

  it("answers exactly 128 choices", async () => {
    const answer = await complete({ prompt: prompts(2), n: 64 });
    expect(answer.status).toBe(200);
    expect(answer.body.choices).toHaveLength(128);
  });

  it("answers 128 prompts once each", async () => {
    const answer = await complete({ prompt: prompts(128) });
    expect(answer.status).toBe(200);
    expect(answer.body.choices).toHaveLength(128);
  });
});
