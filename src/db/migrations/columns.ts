import type { CreateTableBuilder } from "kysely";
import type { DialectName } from "../connect.js";

/** An auto-incrementing integer `id` primary key, spelled the way each dialect wants it. */
export function serialPrimaryKey(dialect: DialectName) {
  return <T extends string>(table: CreateTableBuilder<T>) =>
    dialect === "postgres"
      ? table.addColumn("id", "bigserial", (c) => c.primaryKey())
      : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}
