import type { Db } from "../../../db/database.js";
import type { HoldRow } from "./release-hold.js";

/** The open holds of an organization's work under these references. */
export function holdsUnder(
  tx: Db,
  organizationId: string,
  references: string[],
): Promise<HoldRow[]> {
  return tx.query
    .selectFrom("reservations")
    .select(["id", "organization_id", "amount_nanos", "charged_nanos", "api_key_id"])
    .where("status", "=", "held")
    .where("organization_id", "=", organizationId)
    .where("reference", "in", references)
    .execute();
}

/**
 * The open holds and leases of processes not seen alive since `aliveSince` (Unix seconds), and
 * those without an owner older than that.
 */
export function orphanedHolds(tx: Db, aliveSince: number): Promise<HoldRow[]> {
  return tx.query
    .selectFrom("reservations")
    .select(["id", "organization_id", "amount_nanos", "charged_nanos", "api_key_id"])
    .where("status", "=", "held")
    .where("created_at", "<", aliveSince)
    .where((eb) =>
      eb.or([
        eb("owner", "is", null),
        eb(
          "owner",
          "not in",
          eb.selectFrom("processes").select("id").where("heartbeat_at", ">=", aliveSince),
        ),
      ]),
    )
    .execute();
}
