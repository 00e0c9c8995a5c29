/**
 * What the processes sharing one database tell each other. On PostgreSQL several API and worker
 * processes run side by side: batch work is announced with NOTIFY, and each periodic sweep is
 * run by one process of the cluster at a time, the one holding its advisory lock. On SQLite one
 * process does everything, and leads every duty.
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
   * Tells `watcher` about every change to a key made by any process, and whether such changes
   * can be heard at all right now (never, for a process on its own).
   */
  watchKeyChanges(watcher: KeyChangeWatcher): void;
  close(): Promise<void>;
}

export interface KeyChangeWatcher {
  changed(): void;
  listening(hearing: boolean): void;
}

export type ClusterDuty = "files" | "batch-leases";

/** One process on its own: announcements stay in the process, and it leads every duty. */
export class LocalCluster implements Cluster {
  private readonly listeners = new Set<() => void>();

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

  /** On its own, a process has no announcements of key changes to hear. */
  watchKeyChanges(): void {}

  async close(): Promise<void> {}
}
