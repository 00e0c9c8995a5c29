import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExclusively } from "../../src/cluster/exclusive-sweep.js";
import { CLUSTER_APPLICATION_NAME, PostgresCluster } from "../../src/cluster/postgres-cluster.js";
import {
  connectDatabase,
  type DatabaseHandle,
  postgresClientConfig,
} from "../../src/db/connect.js";
import { until } from "../support/polling.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { silentLog } from "../support/silent-log.js";

describe("cluster coordination on PostgreSQL", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const open: PostgresCluster[] = [];

  async function member(): Promise<PostgresCluster> {
    const cluster = new PostgresCluster({
      client: postgresClientConfig(database.url, {}),
      db: handle.db,
      log: silentLog,
      dutyRetryMs: 0,
      reconnectMs: 20,
    });
    await cluster.start();
    open.push(cluster);
    return cluster;
  }

  /** The backend pids of the cluster members' listening connections. */
  async function listenerPids(): Promise<number[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and application_name = $1",
        [CLUSTER_APPLICATION_NAME],
      );
      return result.rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url);
  });

  afterAll(async () => {
    for (const cluster of open) await cluster.close();
    await handle?.close();
    await database?.drop();
  });

  it("wakes every process when one announces batch work", async () => {
    const [a, b] = [await member(), await member()];
    const heard = { a: 0, b: 0 };
    a.onBatchWork(() => heard.a++);
    b.onBatchWork(() => heard.b++);
    a.announceBatchWork();
    await until(() => heard.a === 1 && heard.b === 1);
    b.announceBatchWork();
    await until(() => heard.a === 2 && heard.b === 2);
  });

  it("gives each duty to one process, and to another once the leader is gone", async () => {
    const [a, b] = [await member(), await member()];
    expect(await a.leads("files")).toBe(true);
    expect(await b.leads("files")).toBe(false);
    // Duties are independent: the other one is still free.
    expect(await b.leads("batch-leases")).toBe(true);
    expect(await a.leads("batch-leases")).toBe(false);
    expect(await a.leads("files")).toBe(true);
    await a.close();
    await until(() => b.leads("files"));
  });

  it("reconnects a listening connection the server ended, and hears announcements again", async () => {
    for (const cluster of open.splice(0)) await cluster.close();
    const survivor = await member();
    const announcer = await member();
    expect(await survivor.leads("files")).toBe(true);
    let heard = 0;
    survivor.onBatchWork(() => heard++);

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      for (const pid of await listenerPids()) {
        await admin.query("select pg_terminate_backend($1)", [pid]);
      }
    } finally {
      await admin.end();
    }
    // Back on its feet it tells its listeners to look, since announcements may have been missed.
    await until(() => heard >= 1);
    await until(async () => (await listenerPids()).length === 2);
    const before = heard;
    announcer.announceBatchWork();
    await until(() => heard > before);
    // The lock went with the old session; the duty is taken again by whoever asks first.
    await until(() => survivor.leads("files"));
    expect(await announcer.leads("files")).toBe(false);
  });

  it("runs a sweep in one process at a time; the others skip it", async () => {
    const holding = resolvers();
    const inside = resolvers();
    const first = sweepExclusively(handle.db, "test-sweep", async () => {
      inside.resolve();
      await holding.promise;
    });
    await inside.promise;
    expect(await sweepExclusively(handle.db, "test-sweep", async () => undefined)).toBe(false);
    expect(await sweepExclusively(handle.db, "other-sweep", async () => undefined)).toBe(true);
    holding.resolve();
    expect(await first).toBe(true);
    expect(await sweepExclusively(handle.db, "test-sweep", async () => undefined)).toBe(true);
  });
});

function resolvers(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
