import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { longestLoopHoldMs } from "../support/loop-stall.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

interface ChatReply {
  status: number;
  body: { choices: { message: { content: string } }[] };
}

async function readReply(response: Response): Promise<ChatReply> {
  return { status: response.status, body: (await response.json()) as ChatReply["body"] };
}

/**
 * Forecast requests whose question is megabytes long, in the shapes the answer parsers find
 * hardest (option lines, percentages). The service must answer them and stay responsive: the
 * parsers read bounded windows of the question and of the reply. How long the event loop is held
 * is measured in the main thread's CPU time (see loop-stall.ts), with the server in this process.
 */
describe("forecast requests with huge questions", () => {
  let server: TestServer;
  let org: TestOrg;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    server = await startTestServer({
      config: {
        models: [
          {
            id: "sibyl-baseline",
            provider: "baseline",
            context_length: 100_000_000,
            max_completion_tokens: 256,
          },
          {
            id: "verbose",
            provider: "openai",
            base_url: upstream.url,
            context_length: 100_000_000,
            max_completion_tokens: 1_000_000,
            pricing: { prompt: "0", completion: "0" },
          },
        ],
      },
    });
    org = await server.createOrg("1");
  });

  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  /** The reply to a chat completion, and the longest the event loop was held while it ran. */
  async function chatHolding(body: string): Promise<{ reply: ChatReply; longestHold: number }> {
    let reply: ChatReply | undefined;
    const longestHold = await longestLoopHoldMs(async () => {
      reply = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
        body,
      }).then(readReply);
    });
    if (reply === undefined) throw new Error("no reply");
    return { reply, longestHold };
  }

  it.each([
    ["option lines", "A)\n".repeat(2_500_000), "multiple_choice"],
    ["percentages", "45% ".repeat(2_000_000), "binary"],
    ["option lines, classified", "B)\n".repeat(2_500_000), "auto"],
  ])("answers a question of %s without holding the event loop", async (_shape, question, type) => {
    const { reply, longestHold } = await chatHolding(
      JSON.stringify({
        model: "sibyl-baseline",
        messages: [{ role: "user", content: question }],
        answer_type: type,
      }),
    );
    expect(reply.status).toBe(200);
    // Option letters with no option text give the baseline nothing to spread probability over:
    // it says so (docs/configuration.md) instead of inventing options.
    expect(reply.body.choices[0]?.message.content).toMatch(
      /<answer>.+<\/answer>$|the question lists no options/,
    );
    // The parsers alone used to hold the event loop for about a second here; a 7.5 MB body's
    // receipt and parse take a few hundred milliseconds on a busy 2-core machine.
    expect(longestHold).toBeLessThan(800);
  });

  it("reads the answer of long replies without holding the event loop", async () => {
    // Four choices of 2 MB each, every one full of numbers that look like answers.
    upstream.enqueue({ contents: [`${"45% ".repeat(500_000)}Final: 30%`] });
    const { reply, longestHold } = await chatHolding(
      JSON.stringify({
        model: "verbose",
        messages: [{ role: "user", content: "Will it pass?" }],
        answer_type: "binary",
        n: 4,
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.choices).toHaveLength(4);
    for (const choice of reply.body.choices) {
      expect(choice.message.content).toMatch(/<answer>0\.3<\/answer>$/);
    }
    expect(longestHold).toBeLessThan(500);
  });
});
