import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { malformedRequests } from "./support/arbitraries/malformed-http.js";
import { FAMILIES } from "./support/families.js";
import {
  describeRequest,
  FuzzClient,
  type FuzzRequest,
  printable,
  sendRaw,
} from "./support/fuzz-request.js";
import { type FuzzWorld, startFuzzWorld } from "./support/fuzz-world.js";
import { ProcessFaults } from "./support/process-faults.js";
import { RequestTally } from "./support/request-tally.js";
import {
  type CheckContext,
  ForeignIds,
  rawResponse,
  responseViolations,
} from "./support/response-checks.js";
import { FUZZ_ROUTES, type FuzzRoute, routeName } from "./support/routes.js";

/** Far longer than any honest answer takes here: a request still open after it has hung. */
const REQUEST_TIMEOUT_MS = 5_000;
/** Bounds one property, shrinking included; running out counts as a failure. */
const PROPERTY_TIME_LIMIT_MS = 20_000;
const MALFORMED_RUNS = 20;
/** Replays a reported failure: fast-check prints the seed it used. */
const seed = process.env.SIBYL_FUZZ_SEED ? Number(process.env.SIBYL_FUZZ_SEED) : undefined;

const tally = new RequestTally();
const faults = new ProcessFaults();
let world: FuzzWorld;
let client: FuzzClient;
let checks: CheckContext;

beforeAll(async () => {
  faults.start();
  world = await startFuzzWorld();
  client = new FuzzClient(world.server.url, REQUEST_TIMEOUT_MS);
  checks = {
    contract: world.contract,
    foreignIds: new ForeignIds([
      ...world.files.foreign,
      ...world.batches.foreign,
      ...world.calibrations.foreign,
    ]),
  };
});

afterAll(async () => {
  console.log(tally.summary());
  await client?.close();
  await world?.close();
  faults.stop();
});

function failure(problems: string[], status: number, text: string): Error {
  return new Error(`${problems.join("; ")}\nanswer: ${status} ${text.slice(0, 500)}`);
}

async function sendChecked(route: FuzzRoute, request: FuzzRequest): Promise<void> {
  tally.count(routeName(route));
  faults.sent(describeRequest(request));
  for (const name of ["authorization", "x-api-key"]) {
    const value = request.headers[name];
    if (value) world.secrets.add(value, `${name} header`);
  }
  checks.foreignIds.noteRequest(request);
  const response = await client.send(request);
  const problems = responseViolations(request, response, checks);
  if (problems.length > 0) throw failure(problems, response.status, response.text);
}

/** Bytes no client library would send: answered (or the connection closed) in time, never 5xx. */
async function sendMalformed(route: FuzzRoute, path: string, bytes: string): Promise<void> {
  tally.count(routeName(route));
  faults.sent(JSON.stringify(bytes.slice(0, 600)));
  const answer = await sendRaw(world.server.url, Buffer.from(bytes, "latin1"), REQUEST_TIMEOUT_MS);
  if (answer.hung) throw new Error("no answer, and the connection left open");
  const response = rawResponse(answer.text);
  if (!response) return;
  if (response.status >= 500) throw failure(["answered 5xx"], response.status, response.text);
  // Node's HTTP layer refuses some framing errors with a bare status line and no body.
  if (response.text === "") return;
  const problems = responseViolations(
    { method: route.method, path, headers: {} },
    response,
    checks,
  );
  if (problems.length > 0) throw failure(problems, response.status, response.text);
}

/** Raw bytes print as a JSON string (escapes visible) in a failure report. */
const printableBytes = (bytes: string) =>
  Object.assign({ bytes }, { [fc.toStringMethod]: () => JSON.stringify(bytes.slice(0, 600)) });

const runOptions = (numRuns: number) => ({
  numRuns,
  interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS,
  markInterruptAsFailure: true,
  ...(seed === undefined ? {} : { seed }),
});

describe("the route catalogue", () => {
  it("covers every operation /openapi.json documents", () => {
    const fuzzed = FUZZ_ROUTES.filter((route) => !route.hidden).map(routeName);
    const documented = world.contract.operations().map(({ method, path }) => `${method} ${path}`);
    expect(fuzzed.sort()).toEqual(documented.sort());
  });

  it("names only routes the server has", () => {
    for (const route of FUZZ_ROUTES) {
      const url = route.path.replace("{model_path}", "*").replaceAll(/\{(\w+)\}/g, ":$1");
      expect(world.server.app.hasRoute({ method: route.method, url }), routeName(route)).toBe(true);
    }
  });
});

describe.each(FUZZ_ROUTES)("$method $path", (route) => {
  for (const family of FAMILIES.filter((candidate) => candidate.appliesTo(route))) {
    it(`never fails on ${family.name}`, async () => {
      const property = fc.asyncProperty(family.requests(route, world), (request) =>
        sendChecked(route, request),
      );
      await fc.assert(property, runOptions(family.runs(route)));
    });
  }

  it("never fails on malformed HTTP", async () => {
    const path = route.path.replaceAll(/\{\w+\}/g, "x");
    const requests = malformedRequests(route.method, path, `Bearer ${world.caller.apiKey}`);
    const property = fc.asyncProperty(requests.map(printableBytes), ({ bytes }) =>
      sendMalformed(route, path, bytes),
    );
    await fc.assert(property, runOptions(MALFORMED_RUNS));
  });
});

describe("after the run", () => {
  it("is healthy: /healthz answers, a chat completion works, no balance is negative", async () => {
    const health = await client.send(printable({ method: "GET", path: "/healthz", headers: {} }));
    expect(health.status).toBe(200);
    const completion = await client.send(
      printable({
        method: "POST",
        path: "/v1/chat/completions",
        headers: {
          authorization: `Bearer ${world.caller.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          model: "sibyl-baseline",
          messages: [{ role: "user", content: `Will it rain tomorrow? ${world.secrets.canary}` }],
          answer_type: "binary",
        }),
      }),
    );
    expect(completion.status, completion.text).toBe(200);
    expect(completion.text).toContain("<answer>");
    const { ledger } = world.server.services;
    for (const org of [world.caller, world.stranger, world.revoked]) {
      expect(await ledger.balance(org.organizationId)).toBeGreaterThanOrEqual(0);
    }
  });

  it("raised no error that nothing caught (each would stop `sibyl serve`)", () => {
    expect(faults.all()).toEqual([]);
  });

  it("kept every API key, credential and prompt out of the log", () => {
    expect(world.log.lineCount).toBeGreaterThan(tally.total / 2);
    const leaks = world.secrets
      .all()
      .map(({ value, what }) => ({ what, lines: world.log.linesContaining(value).slice(0, 3) }))
      .filter((leak) => leak.lines.length > 0);
    expect(leaks).toEqual([]);
  });
});
