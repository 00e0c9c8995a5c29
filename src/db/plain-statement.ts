import { CompiledQuery, type RawBuilder } from "kysely";

/**
 * A statement written out by hand: SQL with a `?` for each parameter, and the parameters in
 * order. The statements every request runs (its settlement) use this: a `sql` template builds
 * and freezes a tree of nodes that is then walked to compile it, which on SQLite costs about
 * as much as running the statement. The text must hold no other `?` (in a literal, a comment or
 * an operator).
 */
export interface PlainStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

export function isPlain(
  statement: RawBuilder<unknown> | PlainStatement,
): statement is PlainStatement {
  return !("toOperationNode" in statement);
}

/** Distinct texts are few (fixed shapes, multi-row inserts up to a fixed size): this bounds them. */
const NUMBERED_TEXTS_LIMIT = 1000;
const numberedTexts = new Map<string, string>();

/** The statement for PostgreSQL, whose placeholders are numbered (`$1`, `$2`, …). */
export function numberedQuery(statement: PlainStatement): CompiledQuery {
  let text = numberedTexts.get(statement.sql);
  if (text === undefined) {
    let position = 0;
    text = statement.sql.replace(/\?/g, () => `$${++position}`);
    if (numberedTexts.size >= NUMBERED_TEXTS_LIMIT) numberedTexts.clear();
    numberedTexts.set(statement.sql, text);
  }
  return CompiledQuery.raw(text, [...statement.parameters]);
}
