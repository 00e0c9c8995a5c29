import { sql } from "kysely";
import type { Db } from "../db/database.js";

/** Records that the process is alive now (creating its row if a sweep removed it). */
export async function beat(db: Db, id: string, role: string, now: number): Promise<void> {
  await db.changes(sql`
    insert into processes (id, role, started_at, heartbeat_at)
    values (${id}, ${role}, ${now}, ${now})
    on conflict (id) do update set heartbeat_at = excluded.heartbeat_at`);
}

/** Forgets processes last seen before `aliveSince`; their holds must be released first. */
export async function forgetDead(db: Db, aliveSince: number): Promise<number> {
  return db.changes(sql`delete from processes where heartbeat_at < ${aliveSince}`);
}

export async function forget(db: Db, id: string): Promise<void> {
  await db.changes(sql`delete from processes where id = ${id}`);
}
