import { createServices } from "../services.js";
import { type Command, CommandFailure, UsageError } from "./command.js";

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export const PAYMENTS_RECONCILE: Command = {
  words: ["payments", "reconcile"],
  summary: "credit the payments that landed on chain and were never credited",
  details:
    "Reads the token's transfers to the recipient carrying this server's MPP memo from the chain node (eth_getLogs) and credits each one not yet credited: to the organization its challenge refilled when that is known, else to an organization of its own, whose key the payer gets by presenting its credential to POST /v1/mpp/topup. Without --since it reads from where the last reconciliation stopped (the worker runs one every minute). Payments already credited are never credited again, so any date is safe.",
  flags: [
    {
      flag: "since",
      value: "DATE",
      description: "read the blocks from this date on (YYYY-MM-DD, or an ISO 8601 date-time)",
    },
  ],
  examples: [
    'sibyl payments reconcile --since 2026-11-01   → {"scanned":[…],"credited","unclaimed","already_credited"}',
  ],
  usesDatabase: true,
  run: async ({ values, config, io }) => {
    const sinceMs = values.since === undefined ? undefined : dateOf(values.since);
    const services = await createServices(config, { env: io.env });
    try {
      if (!services.reconciliation) {
        throw new CommandFailure("payments are not configured: there is nothing to reconcile");
      }
      io.stdout(JSON.stringify(await services.reconciliation.reconcile(sinceMs)));
      return 0;
    } finally {
      await services.close();
    }
  },
};

function dateOf(text: string): number {
  const time = Date.parse(text.trim());
  if (!DATE.test(text.trim()) || Number.isNaN(time)) {
    throw new UsageError(`--since must be a date such as 2026-11-01, not "${text}"`);
  }
  if (time > Date.now()) throw new UsageError(`--since ${text} is in the future`);
  return time;
}
