import { type RawBuilder, sql } from "kysely";
import type { Db, Statements } from "../db/database.js";
import { ServiceError } from "../errors.js";
import { nanosToUsd } from "../util/money.js";

/*
 * A key with a spend limit keeps `spent_nanos`: its settled charges plus its open holds. Holds
 * add to it with a conditional update, as they take from the balance, so however many requests
 * race the sum never passes the limit. Locks are taken in one order everywhere (the reservation,
 * then the key, then the organization), so two transactions never wait on each other.
 */

/** Adds a hold to the key's spend, or changes nothing (0 rows) when that would pass its limit. */
export function holdKeySpend(keyId: string, nanos: number): RawBuilder<unknown> {
  return sql`
    update api_keys set spent_nanos = spent_nanos + ${nanos}
    where id = ${keyId}
      and (spend_limit_nanos is null or spent_nanos + ${nanos} <= spend_limit_nanos)`;
}

/** Moves the key's spend by a settled hold's difference, or back by a released one. */
export function moveKeySpend(keyId: string, deltaNanos: number): RawBuilder<unknown> {
  return sql`update api_keys set spent_nanos = spent_nanos + ${deltaNanos} where id = ${keyId}`;
}

/**
 * What a hold of `holdNanos` may be charged without taking the key past its limit, read under
 * the key's row lock; null when the key has no limit.
 */
export async function keyRoom(tx: Db, keyId: string, holdNanos: number): Promise<number | null> {
  const lock = tx.dialect === "postgres" ? sql` for update` : sql``;
  const [row] = await tx.rows<{ spend_limit_nanos: number | null; spent_nanos: number }>(sql`
    select spend_limit_nanos, spent_nanos from api_keys where id = ${keyId}${lock}`);
  if (!row || row.spend_limit_nanos === null) return null;
  return row.spend_limit_nanos - row.spent_nanos + holdNanos;
}

/** What the key may still hold or spend; null when it has no limit. */
export async function keyRoomLeft(db: Statements, keyId: string): Promise<number | null> {
  const [row] = await db.rows<{ spend_limit_nanos: number | null; spent_nanos: number }>(sql`
    select spend_limit_nanos, spent_nanos from api_keys where id = ${keyId}`);
  if (!row || row.spend_limit_nanos === null) return null;
  return Math.max(0, Number(row.spend_limit_nanos) - Number(row.spent_nanos));
}

/** The code of a refusal for the key's own spend limit. */
export const KEY_SPEND_LIMIT_CODE = "key_spend_limit_reached";

/**
 * The 403 of a request whose worst case would take its key past the key's spend limit: no
 * payment can lift that limit, so it is no 402 and offers no Payment challenge.
 */
export async function keySpendLimitReached(
  db: Statements,
  keyId: string,
  requestNanos: number,
): Promise<ServiceError> {
  const [row] = await db.rows<{ spend_limit_nanos: number | null; spent_nanos: number }>(sql`
    select spend_limit_nanos, spent_nanos from api_keys where id = ${keyId}`);
  const limit = nanosToUsd(row?.spend_limit_nanos ?? 0);
  const spent = nanosToUsd(row?.spent_nanos ?? 0);
  return new ServiceError(
    "forbidden",
    `This API key's spend limit of $${limit} is reached: $${spent} is spent or held by ` +
      `its requests and this one may cost up to $${nanosToUsd(requestNanos)}. ` +
      "Paying or topping up will not help: the limit is the key's own, whatever the organization's balance. " +
      "To go on, an admin of the organization raises it (POST /v1/organization/api_keys/{key_id} with a higher spend_limit_usd) or gives a key with room; or ask for less (a lower max_tokens).",
    { code: KEY_SPEND_LIMIT_CODE },
  );
}
