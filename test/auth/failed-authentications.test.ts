import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

/*
 * Wrong keys and dashboard sign-in guesses from one address are limited to a budget a minute
 * (here 10); past it the address gets 429s until the minute ends, while correct keys from
 * elsewhere are served as before, and no correct key ever spends the budget.
 */
const LIMIT = 10;

let server: TestServer;
let org: TestOrg;
let now = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  server = await startTestServer({
    config: { limits: { failed_authentications_per_minute: LIMIT } },
    clock: { now: () => now },
  });
  org = await server.createOrg();
});
afterAll(async () => {
  await server?.close();
});

const models = (key: string) =>
  fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
const signIn = (token: string) =>
  fetch(`${server.url}/v1/dashboard/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });

describe("the failed authentication budget", () => {
  it("never counts correct keys", async () => {
    for (let i = 0; i < 3 * LIMIT; i++) expect((await models(org.apiKey)).status).toBe(200);
  });

  it("answers 429 once an address spent it on wrong keys and sign-in tokens, until the minute ends", async () => {
    for (let i = 0; i < LIMIT; i++) {
      const response =
        i % 2 === 0 ? await models(`sk_wrong_${i}`) : await signIn(`guess${i}`.padEnd(32, "x"));
      expect(response.status).toBe(401);
    }
    for (const response of [
      await models("sk_wrong"),
      await signIn("guess".padEnd(32, "y")),
      await models(org.apiKey),
    ]) {
      expect(response.status).toBe(429);
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe("too_many_failed_authentications");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    now += 61_000;
    expect((await models(org.apiKey)).status).toBe(200);
    expect((await models("sk_wrong_again")).status).toBe(401);
  });
});
