/**
 * What the processes sharing one database tell each other. On PostgreSQL several API and worker
 * processes run side by side: batch work is announced with NOTIFY, and each periodic sweep is
 * run by one process of the cluster at a time, the one holding its advisory lock. On SQLite one
 * process serves the API and leads every duty.
 */
export interface Cluster {
  /** Tells every process of the cluster (this one too) that batches or lines may be runnable. */
  announceBatchWork(): void;
  /** Calls `listener` on every announcement, and after a lost connection comes back. */
  onBatchWork(listener: () => void): () => void;
  /**
   * Whether this process runs the periodic sweep `duty` now (file expiry and orphan blobs,
   * expired batch line leases). Once a process leads a duty it keeps it until its connection
   * ends. Short sweeps that any process may run use `sweepExclusively` instead.
   */
  leads(duty: ClusterDuty): Promise<boolean>;
  /**
   * Tells `watcher` about every change to a key made by any other process, and whether such
   * changes can be heard at all right now; on SQLite, how to ask whether another process wrote.
   */
  watchKeyChanges(watcher: KeyChangeWatcher): void;
  close(): Promise<void>;
}

export interface KeyChangeWatcher {
  changed(): void;
  listening(hearing: boolean): void;
  /** Keys may have changed whenever `version` gives a new number. */
  followVersion(version: () => number): void;
}

export type ClusterDuty = "files" | "batch-leases" | "payment-reconciliation";

/** One process on its own: announcements stay in the process, and it leads every duty. */
export class LocalCluster implements Cluster {
  private readonly listeners = new Set<() => void>();

  /** `dataVersion`: on SQLite, a number that changes whenever another connection commits. */
  constructor(private readonly dataVersion?: () => number) {}

  announceBatchWork(): void {
    for (const listener of this.listeners) listener();
  }

  onBatchWork(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async leads(): Promise<boolean> {
    return true;
  }

  /**
   * No announcements come to a process on its own, but SQLite tells it when another process (a
   * worker, a CLI command) has written to the database, which may have changed a key.
   */
  watchKeyChanges(watcher: KeyChangeWatcher): void {
    if (this.dataVersion) watcher.followVersion(this.dataVersion);
  }

  async close(): Promise<void> {}
}
