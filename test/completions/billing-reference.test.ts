import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let upstream: FakeUpstream;
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await startTestServer({
    config: {
      models: [
        {
          id: "priced",
          provider: "openai",
          base_url: upstream.url,
          pricing: { prompt: "0.000001", completion: "0.000002" },
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

const body = { model: "priced", messages: [{ role: "user" as const, content: "Q" }] };

describe("billing references", () => {
  it("charges work under its reference once, even when it runs again", async () => {
    upstream.setDefault({ usage: { prompt_tokens: 100, completion_tokens: 50 } });
    const caller = { organizationId: org.organizationId, billingReference: "batch_x:line-1" };
    const first = await server.services.completions.chat(caller, body);
    const second = await server.services.completions.chat(caller, body);
    expect(first.usage.cost_usd).toBeCloseTo(100 * 0.000001 + 50 * 0.000002, 12);
    expect(second.usage.cost_usd).toBe(0);
    const charges = (await server.services.ledger.entries(org.organizationId)).filter(
      (entry) => entry.kind === "charge",
    );
    expect(charges.map((entry) => entry.reference)).toEqual(["batch_x:line-1"]);
    expect(await server.services.ledger.balance(org.organizationId)).toBe(1e9 - 200_000);
  });
});
