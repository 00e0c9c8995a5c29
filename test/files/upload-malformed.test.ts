import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, pipeline } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBlobStore } from "../../src/files/disk-store.js";
import { expectErrorResponse, type JsonResponse } from "../support/http.js";
import { type RawResponse, rawExchange } from "../support/raw-http.js";
import { startTestServer, type TestServer } from "../support/server.js";

const LINE =
  '{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{"model":"sibyl-baseline","messages":[{"role":"user","content":"Will it rain?"}]}}\n';

/** A form with `purpose=batch` and one JSON Lines file, up to (not including) its closing delimiter. */
function formOpening(boundary: string): string {
  return [
    `--${boundary}`,
    'Content-Disposition: form-data; name="purpose"',
    "",
    "batch",
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="input.jsonl"',
    "Content-Type: application/jsonl",
    "",
    LINE.repeat(20),
  ].join("\r\n");
}

function uploadHead(apiKey: string, contentType: string, length: number): string {
  return [
    "POST /v1/files HTTP/1.1",
    "Host: 127.0.0.1",
    `Authorization: Bearer ${apiKey}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${length}`,
    "",
    "",
  ].join("\r\n");
}

/** The upload as one request whose Content-Length matches the body, split where asked. */
function uploadPieces(apiKey: string, contentType: string, body: string, splitAt?: number) {
  const head = uploadHead(apiKey, contentType, Buffer.byteLength(body));
  if (splitAt === undefined) return [head + body];
  return [head + body.slice(0, splitAt), body.slice(splitAt)];
}

/** The blob store's directory listing, in-progress `.partial` files included. */
function storedBlobs(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const multipart = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

/** Part bodies for the boundary `B`, each from its Content-Disposition on. */
const PURPOSE_PART = '--B\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n';
const fileHeaders = (field: string) =>
  `--B\r\nContent-Disposition: form-data; name="${field}"; filename="a.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const EMPTY_FILE = `${PURPOSE_PART}${fileHeaders("file")}`;

const asJson = (response: RawResponse | undefined): JsonResponse => {
  if (!response) throw new Error("no response arrived");
  return {
    status: response.status,
    headers: new Headers(response.headers),
    body: JSON.parse(response.body),
  };
};

describe("malformed multipart uploads", () => {
  let server: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ apiKey } = await server.createOrg());
  });
  afterAll(async () => {
    await server?.close();
  });

  const listedFiles = async () => {
    const response = await fetch(`${server.url}/v1/files`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    return ((await response.json()) as { data: { id: string }[] }).data;
  };
  const expectNothingStored = async () => {
    expect(await listedFiles()).toEqual([]);
    expect(storedBlobs(server.config.files.dir)).toEqual([]);
  };
  const upload = (pieces: string[]) =>
    rawExchange(server.url, pieces, { pauseMs: 200, responses: 1, timeoutMs: 5_000 });
  const expectStoredThenDelete = async (response: RawResponse | undefined) => {
    expect(response?.status).toBe(200);
    const file = JSON.parse(response?.body ?? "{}") as { id: string; bytes: number };
    expect(file.bytes).toBe(Buffer.byteLength(LINE.repeat(20)));
    const deleted = await fetch(`${server.url}/v1/files/${file.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(deleted.status).toBe(200);
  };

  describe.each([
    [
      "a second file",
      "invalid_file_field",
      ['Content-Disposition: form-data; name="file"; filename="more.jsonl"'],
    ],
    [
      "too many fields",
      "too_many_form_fields",
      Array.from({ length: 17 }, (_, i) => `Content-Disposition: form-data; name="extra${i}"`),
    ],
  ])("a form refused part-way for %s", (_label, code, extraParts) => {
    it("is answered, and the connection goes on to serve the next request", async () => {
      // The refusal comes long before the last part's megabytes have been read.
      const parts = [
        ...extraParts.map((header) => `${header}\r\n\r\nx`),
        `Content-Disposition: form-data; name="padding"\r\n\r\n${"x".repeat(2 ** 21)}`,
      ];
      const tail = parts.map((part) => `\r\n--B\r\n${part}`).join("");
      const body = `${formOpening("B")}${tail}\r\n--B--\r\n`;
      const connection = new Client(server.url, { pipelining: 1 });
      try {
        const refused = await connection.request({
          method: "POST",
          path: "/v1/files",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": multipart("B") },
          body,
          headersTimeout: 5_000,
        });
        expect(refused.statusCode).toBe(400);
        expect(((await refused.body.json()) as { error: { code: string } }).error.code).toBe(code);
        const next = await connection.request({
          method: "GET",
          path: "/v1/files",
          headers: { authorization: `Bearer ${apiKey}` },
          headersTimeout: 5_000,
        });
        expect(next.statusCode).toBe(200);
        await next.body.text();
      } finally {
        await connection.close();
      }
      await expectNothingStored();
    });
  });

  it("stores a well-formed form sent over the same raw connection", async () => {
    const body = `${formOpening("b0undary")}\r\n--b0undary--\r\n`;
    const { responses } = await upload(uploadPieces(apiKey, multipart("b0undary"), body));
    await expectStoredThenDelete(responses[0]);
    await expectNothingStored();
  });

  describe.each([
    ["sent at once", undefined],
    ["sent in two pieces", 200],
  ])("%s", (_label, splitAt) => {
    it("answers a misspelled closing boundary with a 400 and stores nothing", async () => {
      const body = `${formOpening("b0undary")}\r\n--b0undaryX--\r\n`;
      const exchange = await upload(uploadPieces(apiKey, multipart("b0undary"), body, splitAt));
      expect(exchange.elapsedMs).toBeLessThan(3_000);
      expectErrorResponse(asJson(exchange.responses[0]), {
        status: 400,
        code: "incomplete_multipart_body",
      });
      await expectNothingStored();
    });

    it("answers a body cut off inside the file with a 400 and stores nothing", async () => {
      const body = formOpening("b0undary").slice(0, -LINE.length * 5);
      const exchange = await upload(uploadPieces(apiKey, multipart("b0undary"), body, splitAt));
      expect(exchange.elapsedMs).toBeLessThan(3_000);
      expectErrorResponse(asJson(exchange.responses[0]), {
        status: 400,
        code: "incomplete_multipart_body",
      });
      await expectNothingStored();
    });
  });

  describe.each([
    ["sent at once", false],
    ["with its last bytes sent apart", true],
  ])("%s", (_label, splitEnd) => {
    const send = (body: string) =>
      upload(uploadPieces(apiKey, multipart("B"), body, splitEnd ? body.length - 2 : undefined));

    it.each([
      ["and no closing boundary", `${EMPTY_FILE}\r\n`, "incomplete_multipart_body"],
      ["and the end right after its headers", EMPTY_FILE, "incomplete_multipart_body"],
      [
        "and a misspelled closing boundary",
        `${EMPTY_FILE}\r\n--BX--\r\n`,
        "incomplete_multipart_body",
      ],
      ["then a boundary and the end", `${EMPTY_FILE}\r\n--B\r\n`, "incomplete_multipart_body"],
      [
        "then the end inside the next part's headers",
        `${EMPTY_FILE}\r\n--B\r\nContent-Disp`,
        "incomplete_multipart_body",
      ],
      [
        "first, then the end inside the next field",
        `${fileHeaders("file")}\r\n${PURPOSE_PART.slice(0, -6)}`,
        "incomplete_multipart_body",
      ],
      ["and a closing boundary", `${EMPTY_FILE}\r\n--B--\r\n`, "invalid_file_format"],
    ])("answers an empty file part %s with a prompt 400", async (_case, body, code) => {
      const exchange = await send(body);
      expect(exchange.elapsedMs).toBeLessThan(3_000);
      expectErrorResponse(asJson(exchange.responses[0]), { status: 400, code });
      await expectNothingStored();
    });

    it.each([
      ["files", "x"],
      ["File", "x"],
      ["", "x"],
      ["files", ""],
    ])(
      "answers a file in the field '%s' (content '%s') and no closing boundary, and keeps running",
      async (field, content) => {
        const faults: unknown[] = [];
        const record = (error: unknown) => faults.push(error);
        process.on("uncaughtException", record);
        process.on("unhandledRejection", record);
        try {
          const exchange = await send(`${fileHeaders(field)}${content}\r\n`);
          expectErrorResponse(asJson(exchange.responses[0]), {
            status: 400,
            code: "invalid_file_field",
          });
          // The cut-off part fails after the answer; a request later it has surely done so.
          await expectNothingStored();
        } finally {
          process.off("uncaughtException", record);
          process.off("unhandledRejection", record);
        }
        expect(faults).toEqual([]);
      },
    );
  });

  it.each([
    ["no boundary", "multipart/form-data"],
    ["an empty boundary", "multipart/form-data; boundary="],
    ["a boundary of 71 characters", multipart("b".repeat(71))],
    ["a boundary of 300 characters", multipart("b".repeat(300))],
    ["a boundary with a character RFC 2046 forbids", multipart("b0und@ry")],
  ])("answers %s with a 400", async (_label, contentType) => {
    const boundary = "b".repeat(300);
    const body = `${formOpening(boundary)}\r\n--${boundary}--\r\n`;
    const { responses } = await upload(uploadPieces(apiKey, contentType, body));
    expectErrorResponse(asJson(responses[0]), {
      status: 400,
      code: "invalid_multipart_boundary",
    });
    await expectNothingStored();
  });

  it.each([
    ["of 70 characters", "b".repeat(70), multipart("b".repeat(70))],
    ["quoted, with a space", "a b:c", 'multipart/form-data; charset=utf-8; boundary="a b:c"'],
  ])("accepts a boundary %s", async (_label, boundary, contentType) => {
    const body = `${formOpening(boundary)}\r\n--${boundary}--\r\n`;
    const { responses } = await upload(uploadPieces(apiKey, contentType, body));
    await expectStoredThenDelete(responses[0]);
  });
});

describe("an upload that stalls", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ app: { requestTimeoutMs: 1_000 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is answered with a 408 and closed once the request timeout passes", async () => {
    const { apiKey } = await server.createOrg();
    const body = `${formOpening("b0undary")}\r\n--b0undary--\r\n`;
    const head = uploadHead(apiKey, multipart("b0undary"), Buffer.byteLength(body));
    const exchange = await rawExchange(server.url, [head + body.slice(0, 300)], {
      timeoutMs: 8_000,
    });
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeGreaterThanOrEqual(900);
    expect(exchange.elapsedMs).toBeLessThan(6_000);
    expect(exchange.responses).toHaveLength(1);
    const response = asJson(exchange.responses[0]);
    expectErrorResponse(response, { status: 408, code: "request_timeout" });
    expect(response.headers.get("connection")).toBe("close");

    // The abandoned upload is discarded once its connection is gone.
    const listed = async () => {
      const response = await fetch(`${server.url}/v1/files`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return ((await response.json()) as { data: unknown[] }).data;
    };
    const deadline = Date.now() + 3_000;
    while (storedBlobs(server.config.files.dir).length > 0 && Date.now() < deadline) {
      await sleep(50);
    }
    expect(storedBlobs(server.config.files.dir)).toEqual([]);
    expect(await listed()).toEqual([]);
  });
});

describe("the disk store, given an upload that fails at once", () => {
  it("leaves no partial file behind, even when the file was still being opened", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sibyl-blobs-"));
    const store = new DiskBlobStore(dir);
    try {
      // The open and the removal race on separate threads; an idle pool between puts lets the
      // open lose often enough that a few hundred tries catch it.
      for (let i = 0; i < 200; i++) {
        const source = new PassThrough();
        const put = store.put(
          `file-${i}`,
          pipeline(source, new PassThrough(), () => undefined),
        );
        source.destroy(new Error("cut off"));
        await expect(put).rejects.toThrow("cut off");
        await sleep(2);
      }
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
