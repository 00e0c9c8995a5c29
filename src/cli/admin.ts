import type { KeyTerms } from "../auth/api-keys.js";
import { nanosToUsd, usdToNanos } from "../billing/money.js";
import type { Config } from "../config/index.js";
import { connectDatabase } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import { createServices, type Services } from "../services.js";
import { unixSeconds } from "../util/clock.js";
import { type CliIo, type CliValues, UsageError } from "./run.js";

/** The operator commands: each prints one JSON document on stdout. */
export async function adminCommands(
  command: string,
  args: string[],
  values: CliValues,
  config: Config,
  io: CliIo,
): Promise<number> {
  if (command === "migrate") {
    const handle = connectDatabase(config.database.url);
    try {
      const outcome = await migrateToLatest(handle);
      io.stdout(JSON.stringify({ applied: outcome.applied }));
    } finally {
      await handle.close();
    }
    return 0;
  }
  const action = ADMIN[`${command} ${args[0] ?? ""}`.trim()];
  if (!action) throw new UsageError(`unknown command "${[command, ...args].join(" ")}"`);
  const services = await createServices(config);
  try {
    io.stdout(JSON.stringify(await action(services, values, args.slice(1))));
    return 0;
  } finally {
    await services.close();
  }
}

type AdminAction = (services: Services, values: CliValues, args: string[]) => Promise<unknown>;

const ADMIN: Record<string, AdminAction> = {
  "orgs create": async (services, values) => {
    const name = required(values.name, "--name");
    const credits =
      values["credits-usd"] === undefined ? 0 : usd(values["credits-usd"], "--credits-usd");
    const { organization, key } = await services.accounts.open({
      name,
      creditsNanos: credits,
      creditKind: "topup",
      creditDetails: { memo: "initial credits (cli)" },
    });
    return { organization_id: organization.id, api_key: key.api_key, api_key_id: key.api_key_id };
  },
  "orgs list": async (services) => ({
    object: "list",
    data: (await services.organizations.list()).map((org) => ({
      organization_id: org.id,
      name: org.name,
      balance_dollars: nanosToUsd(org.balance_nanos),
      created_at: org.created_at,
    })),
  }),
  "credits add": async (services, values) => {
    const organizationId = required(values.org, "--org");
    const amount = usd(required(values.usd, "--usd"), "--usd");
    const balance = await services.ledger.credit(organizationId, amount, "adjustment", {
      memo: "credits added (cli)",
    });
    return { organization_id: organizationId, balance_dollars: nanosToUsd(balance) };
  },
  "keys create": async (services, values) => {
    const organization = await services.organizations.get(required(values.org, "--org"));
    const terms = keyTerms(values, unixSeconds(services.clock));
    return services.apiKeys.issue(organization.id, undefined, terms);
  },
  "keys list": async (services, values) => {
    const organization = await services.organizations.get(required(values.org, "--org"));
    const keys = await services.organizationKeys.all(organization.id);
    return {
      object: "list",
      data: keys.map(({ spend_limit_nanos, spent_nanos, ...key }) => ({
        ...key,
        spend_limit_usd: spend_limit_nanos === null ? null : nanosToUsd(spend_limit_nanos),
        spent_usd: spend_limit_nanos === null ? null : nanosToUsd(spent_nanos),
      })),
    };
  },
  "keys revoke": async (services, _values, args) => {
    const keyId = args[0];
    if (!keyId) throw new UsageError("keys revoke needs a KEY_ID");
    const key = await services.apiKeys.revoke(keyId);
    return { api_key_id: key.id, revoked: true, revoked_at: key.revoked_at };
  },
};

/** The terms of `keys create`: an `admin` key unless `--scope` says otherwise. */
function keyTerms(values: CliValues, now: number): KeyTerms {
  const scope = values.scope ?? "admin";
  if (scope !== "admin" && scope !== "inference") {
    throw new UsageError(`--scope must be admin or inference, got "${scope}"`);
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
    throw new UsageError(`--expires-at must be an ISO 8601 date or time, got "${text}"`);
  }
  return Math.floor(milliseconds / 1000);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

function usd(text: string, flag: string): number {
  try {
    return usdToNanos(text);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
}
