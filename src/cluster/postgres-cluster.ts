import { sql } from "kysely";
import type pg from "pg";
import { postgresDriver } from "../db/connect.js";
import type { Db } from "../db/database.js";
import { KEY_CHANGES_CHANNEL } from "../db/migrations/0010_key_change_notices.js";
import type { Cluster, ClusterDuty, KeyChangeWatcher } from "./cluster.js";

export interface ClusterLog {
  error(details: object, message: string): void;
}

export interface PostgresClusterOptions {
  /** Settings of the dedicated connection that listens and holds the duties' locks. */
  client: pg.ClientConfig;
  /** The pool, through which announcements are sent. */
  db: Db;
  log: ClusterLog;
  /** How long a process that does not lead a duty waits before trying to take it again. */
  dutyRetryMs?: number;
  /** First wait before reconnecting a lost connection; doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
}

const CHANNEL = "sibyl_batch_work";

/** How the listening connections show in pg_stat_activity. */
export const CLUSTER_APPLICATION_NAME = "sibyl-cluster";

/**
 * The cluster on PostgreSQL. One dedicated connection per process LISTENs for announcements
 * and holds the session advisory locks of the duties it leads: when the process dies its
 * connection ends and the server frees the locks, so another process takes the duty over at its
 * next try. A lost connection is reopened with backoff; meanwhile this process leads nothing
 * and its workers fall back to polling.
 */
export class PostgresCluster implements Cluster {
  private client: pg.Client | null = null;
  private readonly led = new Set<ClusterDuty>();
  private readonly lastTry = new Map<ClusterDuty, number>();
  private readonly listeners = new Set<() => void>();
  private readonly keyWatchers = new Set<KeyChangeWatcher>();
  private reconnectDelay: number;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: PostgresClusterOptions) {
    this.reconnectDelay = options.reconnectMs ?? 500;
  }

  /** Opens the listening connection; resolves once it listens or its first attempt failed. */
  start(): Promise<void> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  announceBatchWork(): void {
    this.options.db
      .rows(sql`select pg_notify(${CHANNEL}, '')`)
      .catch((error: unknown) =>
        this.options.log.error({ err: error }, "announcing batch work failed"),
      );
  }

  onBatchWork(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  watchKeyChanges(watcher: KeyChangeWatcher): void {
    this.keyWatchers.add(watcher);
    watcher.listening(this.client !== null);
  }

  async leads(duty: ClusterDuty): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    if (this.led.has(duty)) return true;
    const now = Date.now();
    if (now - (this.lastTry.get(duty) ?? Number.NEGATIVE_INFINITY) < this.dutyRetryMs) {
      return false;
    }
    this.lastTry.set(duty, now);
    try {
      const result = await client.query<{ acquired: boolean }>(
        "select pg_try_advisory_lock(hashtextextended($1, 0)) as acquired",
        [`sibyl.${duty}`],
      );
      // The connection may have been lost while the answer was on its way.
      if (result.rows[0]?.acquired && this.client === client) this.led.add(duty);
    } catch (error) {
      this.options.log.error({ err: error, duty }, "taking a cluster duty failed");
    }
    return this.led.has(duty);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.connecting;
    const client = this.client;
    this.client = null;
    this.led.clear();
    this.tellKeyWatchers(false);
    // Ending the session frees its locks at once, so another process takes over without delay.
    await client?.end().catch(() => undefined);
  }

  private get dutyRetryMs(): number {
    return this.options.dutyRetryMs ?? 1_000;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new (postgresDriver().Client)({
      ...this.options.client,
      application_name: CLUSTER_APPLICATION_NAME,
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, null));
    client.on("notification", (message) => {
      if (message.channel === CHANNEL) this.announceLocally();
      if (message.channel === KEY_CHANGES_CHANNEL) {
        for (const watcher of this.keyWatchers) watcher.changed();
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      this.options.log.error({ err: error }, "cluster connection failed; retrying");
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelay = this.options.reconnectMs ?? 500;
    this.tellKeyWatchers(true);
    // Announcements made while this process was not listening were missed: look now.
    this.announceLocally();
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.led.clear();
    this.lastTry.clear();
    this.tellKeyWatchers(false);
    if (this.closed) return;
    this.options.log.error({ err: error }, "cluster connection lost; reconnecting");
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.maxReconnectMs ?? 10_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.start();
    }, delay);
    this.reconnectTimer.unref();
  }

  private tellKeyWatchers(hearing: boolean): void {
    for (const watcher of this.keyWatchers) watcher.listening(hearing);
  }

  private announceLocally(): void {
    for (const listener of this.listeners) listener();
  }
}
