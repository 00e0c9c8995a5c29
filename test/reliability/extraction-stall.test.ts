import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longOptionText, replyAbout } from "../forecast/generators/option-texts.js";
import { probeHealth } from "../support/timed-requests.js";
import { type ForecasterServer, startForecasterServer } from "./support/forecaster-server.js";

/*
 * Reading a multiple-choice answer runs on the event loop. With long, adversarial option texts
 * (up to the 500 characters an option may have) and replies of a few kilobytes, /healthz must
 * keep answering while the forecasts are read: one request once held a server for minutes.
 */
const PROBE_BOUND_MS = 250;
const RUNS = 12;

let world: ForecasterServer;

beforeAll(async () => {
  world = await startForecasterServer();
  // The first requests compile the request path and the readers: not what this test measures.
  const warmUp = ["Red party of the north", "Blue party of the south", "Green party"];
  world.upstream.setDefault({ contents: [replyAbout(warmUp, 4_000)] });
  for (let run = 0; run < 3; run++) {
    await forecast(`Who will win?\nA) ${warmUp[0]}\nB) ${warmUp[1]}\nC) ${warmUp[2]}`);
  }
});

function forecast(question: string): Promise<{ status: number; text: string }> {
  return fetch(`${world.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.org.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "forecaster",
      messages: [{ role: "user", content: question }],
      answer_type: "multiple_choice",
      n: 4,
    }),
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
}

afterAll(async () => {
  await world?.close();
});

describe("reading answers with long option texts never stalls the event loop", () => {
  it("keeps /healthz answering while such forecasts are read", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(longOptionText(200, 500), { minLength: 3, maxLength: 5 }),
        fc.integer({ min: 1_000, max: 4_000 }),
        async (texts, characters) => {
          const question = `Who will win?\n${texts.map((text, index) => `${String.fromCharCode(65 + index)}) ${text}`).join("\n")}`;
          // Fixed usage: the fake runs in this process, and its token counting is not what is measured.
          world.upstream.setDefault({
            contents: [replyAbout(texts, characters)],
            usage: { prompt_tokens: 500, completion_tokens: 1000 },
          });
          const request = forecast(question);

          const probes = await probeHealth(world.server.url, request, 0);
          const reply = await request;
          expect(reply.status, reply.text.slice(0, 300)).toBe(200);
          expect(Math.max(0, ...probes)).toBeLessThan(PROBE_BOUND_MS);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });
});
