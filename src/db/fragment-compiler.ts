import { type OperationNode, type RawBuilder, RawNode, ValueNode } from "kysely";
import type { PlainStatement } from "./plain-statement.js";

/**
 * Compiles a statement written only with `sql` templates (fragments, bound values, nested `sql`
 * templates and `sql.join` lists) for SQLite; null for anything else, which Kysely's compiler
 * handles. Kysely's general compiler costs about as much as running such a statement on SQLite,
 * and the statements every completion settles with are all of this shape.
 */
export function compileFragments(statement: RawBuilder<unknown>): PlainStatement | null {
  const node = statement.toOperationNode();
  const text: string[] = [];
  const parameters: unknown[] = [];
  return appendRaw(node, text, parameters) ? { sql: text.join(""), parameters } : null;
}

function appendRaw(node: RawNode, text: string[], parameters: unknown[]): boolean {
  const { sqlFragments, parameters: children } = node;
  for (let index = 0; index < sqlFragments.length; index++) {
    text.push(sqlFragments[index] as string);
    const child = children[index];
    if (child !== undefined && !appendChild(child, text, parameters)) return false;
  }
  return true;
}

function appendChild(child: OperationNode, text: string[], parameters: unknown[]): boolean {
  if (RawNode.is(child)) return appendRaw(child, text, parameters);
  // An immediate value is written into the SQL text by Kysely's own rules: leave it to Kysely.
  if (!ValueNode.is(child) || child.immediate) return false;
  text.push("?");
  parameters.push(child.value);
  return true;
}
