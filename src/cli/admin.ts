import type { KeyTerms } from "../auth/api-keys.js";
import { connectDatabase } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import { createServices, type Services } from "../services.js";
import { systemClock, unixSeconds } from "../util/clock.js";
import { nanosToUsd, usdToNanos } from "../util/money.js";
import { type CliValues, type Command, type CommandContext, UsageError } from "./command.js";

type Action = (services: Services) => Promise<unknown>;

/**
 * Checks the command line (before any database is opened or created), runs the action it
 * returns on fresh services and prints its one JSON document on stdout.
 */
function printing(prepare: (values: CliValues, args: string[]) => Action): Command["run"] {
  return async ({ config, values, args, io }: CommandContext) => {
    const action = prepare(values, args);
    const services = await createServices(config);
    try {
      io.stdout(JSON.stringify(await action(services)));
      return 0;
    } finally {
      await services.close();
    }
  };
}

const ORG_FLAG = {
  flag: "org",
  value: "ORG_ID",
  description: "the organization (organization_id from orgs create or orgs list)",
  required: true,
} as const;

export const ADMIN_COMMANDS: readonly Command[] = [
  {
    words: ["migrate"],
    summary: "bring the database schema up to date",
    details: "Every other command and serve also migrate on start; this one only migrates.",
    flags: [],
    examples: ['sibyl migrate                → {"applied":["0001_foundation",…]}'],
    usesDatabase: true,
    run: async ({ config, io }) => {
      const handle = connectDatabase(config.database.url);
      try {
        const outcome = await migrateToLatest(handle);
        io.stdout(JSON.stringify({ applied: outcome.applied }));
      } finally {
        await handle.close();
      }
      return 0;
    },
  },
  {
    words: ["orgs", "create"],
    summary: "create an organization and its first admin API key",
    details: "All or nothing: the organization, its key and its credits are created together.",
    flags: [
      { flag: "name", value: "NAME", description: "the organization's name", required: true },
      {
        flag: "credits-usd",
        value: "X",
        description: "credits to start with, in dollars (default 0)",
      },
    ],
    examples: [
      'sibyl orgs create --name acme --credits-usd 5   → {"organization_id","api_key","api_key_id"}',
    ],
    usesDatabase: true,
    run: printing((values) => {
      const name = required(values.name, "--name");
      const credits =
        values["credits-usd"] === undefined ? 0 : usd(values["credits-usd"], "--credits-usd");
      return async (services) => {
        const { organization, key } = await services.accounts.open({
          name,
          creditsNanos: credits,
          creditKind: "topup",
          creditDetails: { memo: "initial credits (cli)" },
        });
        return {
          organization_id: organization.id,
          api_key: key.api_key,
          api_key_id: key.api_key_id,
        };
      };
    }),
  },
  {
    words: ["orgs", "list"],
    summary: "list the organizations with their balances",
    flags: [],
    examples: ['sibyl orgs list   → {"object":"list","data":[{"organization_id","name",…}]}'],
    usesDatabase: true,
    run: printing(() => async (services) => ({
      object: "list",
      data: (await services.organizations.list()).map((org) => ({
        organization_id: org.id,
        name: org.name,
        balance_dollars: nanosToUsd(org.balance_nanos),
        created_at: org.created_at,
      })),
    })),
  },
  {
    words: ["credits", "add"],
    summary: "add credits to an organization",
    flags: [
      ORG_FLAG,
      { flag: "usd", value: "X", description: "dollars to add, e.g. 10 or 0.25", required: true },
    ],
    examples: ['sibyl credits add --org org_… --usd 10   → {"organization_id","balance_dollars"}'],
    usesDatabase: true,
    run: printing((values) => {
      const organizationId = required(values.org, "--org");
      const amount = usd(required(values.usd, "--usd"), "--usd");
      return async (services) => {
        const balance = await services.ledger.credit(organizationId, amount, "adjustment", {
          memo: "credits added (cli)",
        });
        return { organization_id: organizationId, balance_dollars: nanosToUsd(balance) };
      };
    }),
  },
  {
    words: ["keys", "create"],
    summary: "issue another API key for an organization",
    flags: [
      ORG_FLAG,
      {
        flag: "scope",
        value: "admin|inference",
        description: "admin keys may also manage files, batches and keys (default admin)",
      },
      { flag: "name", value: "NAME", description: "a label shown in keys list and the dashboard" },
      {
        flag: "expires-at",
        value: "DATE",
        description: "ISO 8601 date or time after which the key stops working",
      },
      { flag: "spend-limit-usd", value: "X", description: "most the key may ever spend" },
    ],
    examples: [
      'sibyl keys create --org org_… --scope inference --spend-limit-usd 2   → {"api_key","api_key_id"}',
    ],
    usesDatabase: true,
    run: printing((values) => {
      const organizationId = required(values.org, "--org");
      const terms = keyTerms(values, unixSeconds(systemClock));
      return async (services) => {
        const organization = await services.organizations.get(organizationId);
        return services.apiKeys.issue(organization.id, undefined, terms);
      };
    }),
  },
  {
    words: ["keys", "list"],
    summary: "list an organization's keys (scope, name, expiry, last use, spend limit)",
    flags: [ORG_FLAG],
    examples: ['sibyl keys list --org org_…   → {"object":"list","data":[…]}'],
    usesDatabase: true,
    run: printing((values) => {
      const organizationId = required(values.org, "--org");
      return async (services) => {
        const organization = await services.organizations.get(organizationId);
        const keys = await services.organizationKeys.all(organization.id);
        return {
          object: "list",
          data: keys.map(({ spend_limit_nanos, spent_nanos, ...key }) => ({
            ...key,
            spend_limit_usd: spend_limit_nanos === null ? null : nanosToUsd(spend_limit_nanos),
            spent_usd: spend_limit_nanos === null ? null : nanosToUsd(spent_nanos),
          })),
        };
      };
    }),
  },
  {
    words: ["keys", "revoke"],
    summary: "revoke a key at once, everywhere",
    flags: [],
    positionals: [{ name: "KEY_ID", description: "the key's api_key_id (see keys list)" }],
    examples: ['sibyl keys revoke key_…   → {"api_key_id","revoked":true,"revoked_at"}'],
    usesDatabase: true,
    run: printing((_values, args) => async (services) => {
      const key = await services.apiKeys.revoke(args[0] as string);
      return { api_key_id: key.id, revoked: true, revoked_at: key.revoked_at };
    }),
  },
];

/** The terms of `keys create`: an `admin` key unless `--scope` says otherwise. */
function keyTerms(values: CliValues, now: number): KeyTerms {
  const scope = values.scope ?? "admin";
  if (scope !== "admin" && scope !== "inference") {
    throw new UsageError(`--scope must be admin or inference, not "${scope}"`);
  }
  const expiresAt = values["expires-at"] === undefined ? null : unixTime(values["expires-at"]);
  if (expiresAt !== null && expiresAt <= now) {
    throw new UsageError("--expires-at must be in the future");
  }
  const limit = values["spend-limit-usd"];
  const spendLimitNanos = limit === undefined ? null : usd(limit, "--spend-limit-usd");
  if (spendLimitNanos === 0) throw new UsageError("--spend-limit-usd must be more than 0");
  return { scope, name: values.name ?? null, expiresAt, spendLimitNanos };
}

/** An ISO 8601 date or time (a date alone is midnight UTC) as Unix seconds. */
function unixTime(text: string): number {
  const milliseconds = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(milliseconds)) {
    throw new UsageError(
      `--expires-at must be an ISO 8601 date or time such as 2026-12-31 or 2026-12-31T18:00:00Z, not "${text}"`,
    );
  }
  return Math.floor(milliseconds / 1000);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

/** A dollar amount as nano-dollars, or a sentence saying what an amount looks like. */
function usd(text: string, flag: string): number {
  try {
    return usdToNanos(text);
  } catch (error) {
    if (/^\s*-/.test(text)) throw new UsageError(`${flag} cannot be negative, got ${text.trim()}`);
    throw new UsageError(
      `${flag} must be an amount in dollars such as 5 or 0.25, not "${text}" (${(error as Error).message})`,
    );
  }
}
