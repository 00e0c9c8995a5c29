import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  HTTP_PROVIDERS,
  type HttpProviderName,
} from "../../../src/research/providers/catalogue.js";
import { MAX_REPLY_BYTES } from "../../../src/research/providers/transport.js";
import { type ResearchSource, ResearchSourceError } from "../../../src/research/source.js";
import { closedPort, type FakeProvider, json, startFakeProvider, text } from "./fake-provider.js";

const API_KEY = "secret-key-3e9f0a7b";
const SHORT_TIMEOUT_MS = 300;
const CUTOFF = new Date("2024-03-14T12:00:00Z");
const QUERY = "Will the central bank cut interest rates?";
const NAMES = Object.keys(HTTP_PROVIDERS) as HttpProviderName[];

/** Each failure must be a ResearchSourceError for this provider whose message never has the key. */
async function expectFailure(
  search: Promise<unknown>,
  provider: string,
  message: RegExp,
): Promise<void> {
  const error = await search.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ResearchSourceError);
  const failure = error as ResearchSourceError;
  expect(failure.provider).toBe(provider);
  expect(failure.message).toMatch(message);
  expect(failure.message).not.toContain(API_KEY);
}

describe.each(NAMES)("%s failures", (name) => {
  let fake: FakeProvider;
  let source: ResearchSource;

  beforeAll(async () => {
    fake = await startFakeProvider();
    source = HTTP_PROVIDERS[name].create({
      baseUrl: fake.url,
      apiKey: API_KEY,
      timeoutMs: SHORT_TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("fails on a server error, naming the status", async () => {
    fake.answer(text(`upstream failure for key ${API_KEY}`, 503));

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      new RegExp(`^${name}: HTTP 503: upstream failure for key \\[REDACTED\\]$`),
    );
  });

  it("fails on a client error, naming the status", async () => {
    fake.answer(json({ message: "bad request" }, 400));

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /HTTP 400: bad request/,
    );
  });

  it("fails on malformed JSON", async () => {
    fake.answer(text('{"results": [', 200, "application/json"));

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /unreadable JSON reply/,
    );
  });

  it("fails on JSON of the wrong shape", async () => {
    fake.answer(json({ articles: "x", results: "x", as_dicts: "x", web: { results: "x" } }));

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /reply has no .*list/,
    );
  });

  it("fails on a JSON array where an object belongs", async () => {
    fake.answer(json([]));

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /reply (is not a JSON object|has no \w+ list)$/,
    );
  });

  it("times out when the server never answers", async () => {
    fake.answer({ kind: "silent" });

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      new RegExp(`no complete reply within ${SHORT_TIMEOUT_MS} ms`),
    );
  });

  it("times out when the body stops arriving, the limit covering the whole request", async () => {
    fake.answer({ kind: "stall", contentType: "application/json", firstPiece: '{"results": [' });

    await expectFailure(
      source.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      new RegExp(`no complete reply within ${SHORT_TIMEOUT_MS} ms`),
    );
  });

  it("fails on a body larger than the cap, declared or not", async () => {
    // Five megabytes take a while on a busy machine: the cap, not the time limit, must end it.
    const patient = HTTP_PROVIDERS[name].create({
      baseUrl: fake.url,
      apiKey: API_KEY,
      timeoutMs: 30_000,
    });
    const huge = Buffer.alloc(MAX_REPLY_BYTES + 1, 0x20);
    fake.answer({ kind: "reply", status: 200, contentType: "application/json", body: huge });
    await expectFailure(
      patient.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /reply larger than 5242880 bytes/,
    );

    fake.answer({
      kind: "reply",
      status: 200,
      contentType: "application/json",
      body: huge,
      chunked: true,
    });
    await expectFailure(
      patient.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /reply larger than 5242880 bytes/,
    );
  });

  it("stops when the caller aborts, and sends nothing when already aborted", async () => {
    fake.answer({ kind: "silent" });
    const controller = new AbortController();
    const slow = HTTP_PROVIDERS[name].create({
      baseUrl: fake.url,
      apiKey: API_KEY,
      timeoutMs: 30_000,
    });
    const arrived = fake.nextRequest();
    const search = slow.search(QUERY, { cutoff: CUTOFF, limit: 5, signal: controller.signal });
    await arrived;
    controller.abort();
    await expectFailure(search, name, /request cancelled by the caller/);

    fake.requests.length = 0;
    await expectFailure(
      slow.search(QUERY, { cutoff: CUTOFF, limit: 5, signal: AbortSignal.abort() }),
      name,
      /request cancelled by the caller/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("asks nothing for a limit of zero", async () => {
    await expect(source.search(QUERY, { cutoff: CUTOFF, limit: 0 })).resolves.toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("fails when the connection is refused", async () => {
    const port = await closedPort();
    const unreachable = HTTP_PROVIDERS[name].create({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: API_KEY,
      timeoutMs: 5_000,
    });

    await expectFailure(
      unreachable.search(QUERY, { cutoff: CUTOFF, limit: 5 }),
      name,
      /connection refused/,
    );
  });
});
