import type { Kysely, Migration } from "kysely";

/**
 * A batch remembers the API key that created it, so its lines are held against that key's spend
 * limit and their usage is recorded under it, as the key's own requests are. Batches created
 * before keys were remembered have none and run on the organization's balance alone.
 */
export const batchKeys = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("batches").addColumn("api_key_id", "text").execute();
}
