import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
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
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(name: string, db: Kysely<Database> = this.db): Promise<Organization> {
    const organization: Organization = {
      id: newId("org_"),
      name,
      balance_nanos: 0,
      created_at: unixSeconds(this.clock),
    };
    await db.insertInto("organizations").values(organization).execute();
    return organization;
  }

  async get(id: string): Promise<Organization> {
    const row = await this.db
      .selectFrom("organizations")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("organization", id);
    return row;
  }

  async list(): Promise<Organization[]> {
    return this.db
      .selectFrom("organizations")
      .selectAll()
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }
}
