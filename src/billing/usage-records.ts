import { type RawBuilder, sql } from "kysely";

/** What a settled request used, recorded with its charge for the usage reports. */
export interface UsageDetails {
  /** The key that made the request (a batch line: the key that created its batch); null for batches created before batches recorded their key. */
  apiKeyId: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** The usage record of a request that was charged `costNanos`. */
export function insertUsageRecord(
  organizationId: string,
  usage: UsageDetails,
  costNanos: number,
  now: number,
): RawBuilder<unknown> {
  return sql`
    insert into usage_records
      (organization_id, api_key_id, model, input_tokens, output_tokens, cost_nanos, created_at)
    values (${organizationId}, ${usage.apiKeyId}, ${usage.model}, ${usage.inputTokens},
      ${usage.outputTokens}, ${costNanos}, ${now})`;
}
