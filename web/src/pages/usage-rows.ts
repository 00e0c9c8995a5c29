import type { UsageBucket } from "../api/types";
import { toCsv } from "../csv";
import { isoDay } from "../format";

/** One line of the usage table: one day, model and key. */
export interface UsageRow {
  day: string;
  model: string;
  key: string;
  requests: number;
  input: number;
  output: number;
  cost: number;
}

export type UsageTotal = Pick<UsageRow, "requests" | "input" | "output" | "cost">;

export function rowsOf(buckets: UsageBucket[], keyNames: Map<string, string>): UsageRow[] {
  return buckets.flatMap((bucket) =>
    bucket.results.map((result) => ({
      day: isoDay(bucket.start_time),
      model: result.model ?? "",
      key:
        result.api_key_id === null
          ? "batch"
          : (keyNames.get(result.api_key_id) ?? result.api_key_id),
      requests: result.num_model_requests,
      input: result.input_tokens,
      output: result.output_tokens,
      cost: result.cost_usd,
    })),
  );
}

export function totalOf(rows: UsageRow[]): UsageTotal {
  return rows.reduce(
    (sum, row) => ({
      requests: sum.requests + row.requests,
      input: sum.input + row.input,
      output: sum.output + row.output,
      cost: sum.cost + row.cost,
    }),
    { requests: 0, input: 0, output: 0, cost: 0 },
  );
}

const CSV_HEADER = [
  "day",
  "model",
  "api_key",
  "requests",
  "input_tokens",
  "output_tokens",
  "cost_usd",
];

export function usageCsv(rows: UsageRow[]): string {
  const body = rows.map((row) => [
    row.day,
    row.model,
    row.key,
    row.requests,
    row.input,
    row.output,
    row.cost,
  ]);
  return toCsv([CSV_HEADER, ...body]);
}
