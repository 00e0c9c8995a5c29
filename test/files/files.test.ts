import { type APIError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../src/util/clock.js";
import {
  type BatchServer,
  chatLine,
  jsonl,
  startBatchServer,
} from "../batches/support/batch-server.js";

const content = jsonl([chatLine("1"), chatLine("2")]);

describe("files API", () => {
  let server: BatchServer;
  let offsetMs = 0;
  const clock: Clock = { now: () => Date.now() + offsetMs };
  beforeAll(async () => {
    server = await startBatchServer({ clock, worker: false });
  });
  afterAll(async () => {
    await server.close();
  });

  const upload = (apiKey: string | null, form: FormData) =>
    fetch(`${server.url}/v1/files`, {
      method: "POST",
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      body: form,
    });
  const form = (fields: Record<string, string>, file: string | null = content) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    if (file !== null) data.append("file", new Blob([file]), "input.jsonl");
    return data;
  };

  it("uploads, retrieves, downloads, lists and deletes through the SDK", async () => {
    const { openai } = await server.client();
    const file = await openai.files.create({
      file: await toFile(Buffer.from(content), "questions.jsonl"),
      purpose: "batch",
      expires_after: { anchor: "created_at", seconds: 3600 },
    });
    expect(file).toMatchObject({
      object: "file",
      purpose: "batch",
      filename: "questions.jsonl",
      bytes: Buffer.byteLength(content),
      status: "processed",
      expires_at: file.created_at + 3600,
    });
    expect(file.id).toMatch(/^file-/);
    expect(await openai.files.retrieve(file.id)).toEqual(file);
    expect(await (await openai.files.content(file.id)).text()).toBe(content);
    expect((await openai.files.list()).data.map((f) => f.id)).toContain(file.id);
    expect(await openai.files.delete(file.id)).toEqual({
      id: file.id,
      object: "file",
      deleted: true,
    });
    const gone = await openai.files.retrieve(file.id).catch((e: unknown) => e);
    expect((gone as APIError).status).toBe(404);
  });

  it("lists in pages with purpose, order, limit and after", async () => {
    const { openai } = await server.client();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        (
          await openai.files.create({
            file: await toFile(Buffer.from(content), `f${i}.jsonl`),
            purpose: "batch",
          })
        ).id,
      );
    }
    const page = await openai.files.list({ limit: 3 });
    expect(page.data.map((f) => f.id)).toEqual([...ids].reverse().slice(0, 3));
    expect(page.has_more).toBe(true);
    const ascending = await openai.files.list({ order: "asc", limit: 2, after: ids[0] });
    expect(ascending.data.map((f) => f.id)).toEqual(ids.slice(1, 3));
    expect((await openai.files.list({ purpose: "batch_output" })).data).toEqual([]);
    const all: string[] = [];
    for await (const file of openai.files.list({ limit: 1, order: "asc" })) all.push(file.id);
    expect(all).toEqual(ids);
  });

  it("rejects bad forms with 400 and a clear message", async () => {
    const { org } = await server.client();
    const cases: [FormData, string][] = [
      [form({ purpose: "batch" }, "not json\n"), "JSON Lines"],
      [form({ purpose: "batch" }, ""), "empty"],
      [form({ purpose: "batch_output" }), "reserved"],
      [form({ purpose: "fine-tune" }), "only purpose"],
      [form({}), "purpose"],
      [form({ purpose: "batch" }, null), "file"],
      [
        form({
          purpose: "batch",
          "expires_after[anchor]": "last_active_at",
          "expires_after[seconds]": "3600",
        }),
        "created_at",
      ],
      [
        form({
          purpose: "batch",
          "expires_after[anchor]": "created_at",
          "expires_after[seconds]": "60",
        }),
        "3600",
      ],
      [
        form({
          purpose: "batch",
          "expires_after[anchor]": "created_at",
          "expires_after[seconds]": "2592001",
        }),
        "2592000",
      ],
      [form({ purpose: "batch", "expires_after[seconds]": "3600" }), "anchor"],
    ];
    for (const [data, words] of cases) {
      const response = await upload(org.apiKey, data);
      const body = (await response.json()) as { error: { message: string } };
      expect(response.status, body.error.message).toBe(400);
      expect(body.error.message).toContain(words);
    }
    const json = await fetch(`${server.url}/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
  });

  it("rejects uploads over 200 MB with 413", async () => {
    const { org } = await server.client();
    const chunk = Buffer.alloc(8 * 1024 * 1024, 0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 200 * 1024 * 1024) {
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const boundary = "sibyl-boundary";
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.jsonl"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const reader = body.getReader();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          controller.enqueue(tail);
          controller.close();
        } else controller.enqueue(next.value);
      },
    });
    const response = await fetch(`${server.url}/v1/files`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${org.apiKey}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  }, 60_000);

  it("hides another organization's files (404) and needs a key (401)", async () => {
    const owner = await server.client();
    const other = await server.client();
    const file = await owner.openai.files.create({
      file: await toFile(Buffer.from(content), "mine.jsonl"),
      purpose: "batch",
    });
    for (const call of [
      () => other.openai.files.retrieve(file.id),
      () => other.openai.files.content(file.id),
      () => other.openai.files.delete(file.id),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect((error as APIError).status).toBe(404);
    }
    expect((await other.openai.files.list()).data).toEqual([]);
    expect((await owner.openai.files.retrieve(file.id)).id).toBe(file.id);
    expect((await upload(null, form({ purpose: "batch" }))).status).toBe(401);
    for (const path of [`/v1/files`, `/v1/files/${file.id}`, `/v1/files/${file.id}/content`]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(401);
    }
    const traversal = await fetch(`${server.url}/v1/files/..%2F..%2Fetc%2Fpasswd/content`, {
      headers: { authorization: `Bearer ${owner.org.apiKey}` },
    });
    expect(traversal.status).toBe(404);
  });

  it("expired files disappear and the sweeper deletes them", async () => {
    const { openai } = await server.client();
    const file = await openai.files.create({
      file: await toFile(Buffer.from(content), "short.jsonl"),
      purpose: "batch",
      expires_after: { anchor: "created_at", seconds: 3600 },
    });
    offsetMs += 3601 * 1000;
    const error = await openai.files.retrieve(file.id).catch((e: unknown) => e);
    expect((error as APIError).status).toBe(404);
    expect((await openai.files.list()).data).toEqual([]);
    expect(await server.services.files.sweepExpired()).toBeGreaterThanOrEqual(1);
    const rows = await server.services.database.db.query
      .selectFrom("files")
      .select("id")
      .where("id", "=", file.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
