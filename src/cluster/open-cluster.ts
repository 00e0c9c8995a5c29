import type { Config } from "../config/index.js";
import type { DatabaseHandle } from "../db/connect.js";
import { postgresClientConfig } from "../db/connect.js";
import { type Cluster, LocalCluster } from "./cluster.js";
import { type ClusterLog, PostgresCluster } from "./postgres-cluster.js";

/** The cluster of processes on this database: PostgreSQL's, or this process alone on SQLite. */
export async function openCluster(
  database: Config["database"],
  handle: DatabaseHandle,
  log: ClusterLog,
): Promise<Cluster> {
  if (handle.dialect !== "postgres") return new LocalCluster(handle.dataVersion);
  const cluster = new PostgresCluster({
    client: postgresClientConfig(database.url, {
      statementTimeoutMs: database.statement_timeout_ms,
      connectTimeoutMs: database.connect_timeout_ms,
    }),
    db: handle.db,
    log,
  });
  await cluster.start();
  return cluster;
}
