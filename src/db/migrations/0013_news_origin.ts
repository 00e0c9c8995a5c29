import { type Kysely, type Migration, sql } from "kysely";

/**
 * Where each archived article came from: `feed` (stored by Sibyl's feed watcher when it first saw
 * it, so its first_seen_at is Sibyl's own) or `import` (`sibyl news import`, whose dates are the
 * file's word). Research trusts only feed text to mention later dates. Articles archived before
 * this column existed count as imports: nothing recorded says otherwise.
 */
export const newsOrigin = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("news_articles")
    .addColumn("origin", "text", (c) => c.notNull().defaultTo(sql.lit("import")))
    .execute();
}
