import type { EntryDetails, Ledger } from "../billing/ledger.js";
import type { Db } from "../db/database.js";
import type { ApiKeys, IssuedKey } from "./api-keys.js";
import type { Organization, Organizations } from "./organizations.js";

export interface OpenAccount {
  name: string;
  /** First credits, in nano-dollars; none when 0 or absent. */
  creditsNanos?: number;
  /** How the first credits are recorded: bought (topup) or granted by the operator. */
  creditKind?: "topup" | "adjustment";
  creditDetails?: EntryDetails;
}

export interface OpenedAccount {
  organization: Organization;
  key: IssuedKey;
  balanceNanos: number;
}

/**
 * New customers: an organization, its first API key and its first credits, created together or
 * not at all. Used by `sibyl orgs create`, and by anything else that signs customers up.
 */
export class Accounts {
  constructor(
    private readonly db: Db,
    private readonly organizations: Organizations,
    private readonly apiKeys: ApiKeys,
    private readonly ledger: Ledger,
  ) {}

  /** `db` may be a caller's transaction: the account is then committed (or undone) with it. */
  async open(account: OpenAccount, db: Db = this.db): Promise<OpenedAccount> {
    return db.transaction(async (tx) => {
      const organization = await this.organizations.create(account.name, tx);
      const key = await this.apiKeys.issue(organization.id, tx);
      const credits = account.creditsNanos ?? 0;
      const balanceNanos =
        credits > 0
          ? await this.ledger.credit(
              organization.id,
              credits,
              account.creditKind ?? "adjustment",
              account.creditDetails ?? {},
              tx,
            )
          : 0;
      return { organization: { ...organization, balance_nanos: balanceNanos }, key, balanceNanos };
    });
  }
}
