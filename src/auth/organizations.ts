import type { Db } from "../db/database.js";
import { notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";

export interface Organization {
  id: string;
  name: string;
  balance_nanos: number;
  created_at: number;
}

export class Organizations {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Creates an empty organization; `db` may be a caller's transaction, which it then joins. */
  async create(name: string, db: Db = this.db): Promise<Organization> {
    const organization: Organization = {
      id: newId("org_"),
      name,
      balance_nanos: 0,
      created_at: unixSeconds(this.clock),
    };
    await db.query.insertInto("organizations").values(organization).execute();
    return organization;
  }

  async get(id: string): Promise<Organization> {
    const row = await this.db.query
      .selectFrom("organizations")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("organization", id);
    return row;
  }

  async list(): Promise<Organization[]> {
    return this.db.query
      .selectFrom("organizations")
      .selectAll()
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }
}
