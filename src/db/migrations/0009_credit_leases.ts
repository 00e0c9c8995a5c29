import { type Kysely, type Migration, sql } from "kysely";

/**
 * A reservation is either the hold of one piece of work or a process's lease on part of an
 * organization's credits, out of which it holds its requests in memory (see CreditLeases). A
 * lease's `charged_nanos` grows as its requests' charges are written.
 */
export const creditLeases = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("reservations")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo(sql`'hold'`))
    .execute();
}
