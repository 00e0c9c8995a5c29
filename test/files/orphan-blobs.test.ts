import { readdir, utimes } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBlobStore } from "../../src/files/disk-store.js";
import { insertFile } from "../../src/files/file-records.js";
import { Files } from "../../src/files/files-service.js";
import { systemClock } from "../../src/util/clock.js";
import { startTestServer, type TestServer } from "../support/server.js";

describe("orphan blob sweep on disk", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("deletes old blobs without a row and leaves every other file alone", async () => {
    const { dir } = server.config.files;
    const { db } = server.services.database;
    const store = new DiskBlobStore(dir);
    const files = new Files(db, store, systemClock, { orphanGraceMs: 60_000 });
    const { organizationId } = await server.createOrg();
    const old = new Date(Date.now() - 120_000);
    const putOld = async (key: string) => {
      await store.put(key, Readable.from([`${key}\n`]));
      await utimes(path.join(dir, key), old, old);
    };
    // More orphans than one row lookup covers.
    const orphans = Array.from({ length: 501 }, (_, i) => `file-orphan-${i}`);
    for (let i = 0; i < orphans.length; i += 50) {
      await Promise.all(orphans.slice(i, i + 50).map(putOld));
    }
    await putOld("file-kept");
    await putOld("notes");
    await insertFile(db, {
      id: "file-kept",
      organization_id: organizationId,
      purpose: "batch",
      filename: "kept.jsonl",
      bytes: 10,
      status: "processed",
      status_details: null,
      created_at: Math.floor(old.getTime() / 1000),
      expires_at: null,
    });
    await store.put("file-young", Readable.from(["young\n"]));

    const body = new PassThrough();
    const writing = store.put("file-writing", body);
    body.write("first half\n");
    let partial: string | undefined;
    while (!partial) {
      await sleep(5);
      partial = (await readdir(dir)).find((name) => name.endsWith(".partial"));
    }
    await utimes(path.join(dir, partial), old, old);

    expect(await files.sweepExpired()).toBe(orphans.length);
    body.end("second half\n");
    await writing;
    expect((await readdir(dir)).sort()).toEqual([
      "file-kept",
      "file-writing",
      "file-young",
      "notes",
    ]);
    expect(Buffer.concat(await (await store.get("file-writing")).toArray()).toString()).toBe(
      "first half\nsecond half\n",
    );
  });
});
