import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { toFile } from "openai";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobNotFoundError } from "../../src/files/blob-store.js";
import { insertFile } from "../../src/files/file-records.js";
import { Files } from "../../src/files/files-service.js";
import { S3BlobStore } from "../../src/files/s3-store.js";
import { systemClock, unixSeconds } from "../../src/util/clock.js";
import {
  type BatchServer,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";

const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

describe("S3 blob store (s3rver on loopback)", () => {
  let s3: S3rver;
  let endpoint: string;
  const directory = mkdtempSync(path.join(tmpdir(), "sibyl-s3-"));
  beforeAll(async () => {
    s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory,
      configureBuckets: [
        { name: "sibyl-files", configs: [] },
        { name: "sibyl-sweep", configs: [] },
      ],
    });
    const address = await s3.run();
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const store = (bucket = "sibyl-files") =>
    new S3BlobStore({
      bucket,
      client: { endpoint, region: "us-east-1", forcePathStyle: true, credentials },
    });

  it("streams small and multi-part objects in and out, and deletes them", async () => {
    const blobs = store();
    const small = Buffer.from("hello\n");
    await blobs.put("file-small", Readable.from([small]));
    expect(Buffer.concat(await (await blobs.get("file-small")).toArray())).toEqual(small);

    const part = Buffer.alloc(3 * 1024 * 1024, 0x62);
    await blobs.put("file-large", Readable.from([part, part, part, part]));
    const large = Buffer.concat(await (await blobs.get("file-large")).toArray());
    expect(large.length).toBe(part.length * 4);

    await blobs.delete("file-large");
    await expect(blobs.get("file-large")).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobs.put("../escape", Readable.from([small]))).rejects.toThrow(RangeError);
    await blobs.close();
  });

  describe("through the API", () => {
    let server: BatchServer;
    beforeAll(async () => {
      process.env.SIBYL_TEST_S3_KEY = credentials.accessKeyId;
      process.env.SIBYL_TEST_S3_SECRET = credentials.secretAccessKey;
      server = await startBatchServer({
        config: {
          files: {
            store: "s3",
            bucket: "sibyl-files",
            endpoint,
            region: "us-east-1",
            access_key_id_env: "SIBYL_TEST_S3_KEY",
            secret_access_key_env: "SIBYL_TEST_S3_SECRET",
            force_path_style: true,
          },
        },
      });
    });
    afterAll(async () => {
      await server.close();
      // Later files share this process: leave its environment as it was.
      delete process.env.SIBYL_TEST_S3_KEY;
      delete process.env.SIBYL_TEST_S3_SECRET;
    });

    it("uploads, runs a batch and serves its results from the bucket", async () => {
      const { openai } = await server.client();
      const input = jsonl([chatLine("s3-1"), chatLine("s3-2")]);
      const file = await uploadBatchFile(openai, input);
      expect(await (await openai.files.content(file.id)).text()).toBe(input);
      const batch = await waitForBatch(
        openai,
        (
          await openai.batches.create({
            input_file_id: file.id,
            endpoint: "/v1/chat/completions",
            completion_window: "24h",
          })
        ).id,
      );
      expect(batch.status).toBe("completed");
      expect((await readResults(openai, batch.output_file_id)).length).toBe(2);
      await openai.files.delete(file.id);
      const again = await openai.files
        .create({ file: await toFile(Buffer.from(input), "again.jsonl"), purpose: "batch" })
        .then((f) => f.id);
      expect(again).toMatch(/^file-/);
    });

    it("sweeps old blobs without a row", async () => {
      const blobs = store("sibyl-sweep");
      const { db } = server.services.database;
      // Object times come from the server's clock, so the old blobs really age, briefly. S3 keeps
      // them to the second (s3rver too), so a blob can look up to a second older than it is:
      // the grace leaves the young blob that second and more.
      const files = new Files(db, blobs, systemClock, { orphanGraceMs: 2_000 });
      const { org } = await server.client();
      const put = (key: string) => blobs.put(key, Readable.from([`${key}\n`]));
      const orphans = ["file-orphan-1", "file-orphan-2"];
      await Promise.all(orphans.map(put));
      await put("file-kept");
      await put("notes");
      await insertFile(db, {
        id: "file-kept",
        organization_id: org.organizationId,
        purpose: "batch",
        filename: "kept.jsonl",
        bytes: 10,
        status: "processed",
        status_details: null,
        created_at: unixSeconds(systemClock),
        expires_at: null,
      });
      await sleep(2_600);
      await put("file-young");

      expect(await files.sweepExpired()).toBe(orphans.length);
      const left: string[] = [];
      for await (const blob of blobs.list()) left.push(blob.key);
      expect(left.sort()).toEqual(["file-kept", "file-young", "notes"]);
      await blobs.close();
    });
  });
});
