import type { KeyTerms } from "../../auth/api-keys.js";
import type { KeyChanges, KeyRecord } from "../../auth/organization-keys.js";
import type { CostPage } from "../../billing/cost-report.js";
import { SECONDS_PER_DAY } from "../../billing/day-pages.js";
import type { LedgerEntryRecord } from "../../billing/ledger-history.js";
import type { UsagePage } from "../../billing/usage-report.js";
import { invalidRequest } from "../../errors.js";
import { type Clock, unixSeconds } from "../../util/clock.js";
import { nanosToUsd, usdToNanos } from "../../util/money.js";
import type { ApiKeyCreateBody, ApiKeyUpdateBody } from "./organization-schemas.js";

/** The organization API's objects: dollars and public ids here, nano-dollars below. */

export function keyObject(record: KeyRecord) {
  return {
    object: "organization.api_key" as const,
    id: record.id,
    name: record.name,
    redacted_value: `${record.prefix}...`,
    scope: record.scope,
    created_at: record.created_at,
    last_used_at: record.last_used_at,
    expires_at: record.expires_at,
    revoked_at: record.revoked_at,
    spend_limit_usd:
      record.spend_limit_nanos === null ? null : nanosToUsd(record.spend_limit_nanos),
  };
}

/** A new key's terms; keys made through the API are `inference` keys unless asked otherwise. */
export function keyTerms(body: ApiKeyCreateBody): KeyTerms {
  return {
    scope: body.scope ?? "inference",
    name: body.name ?? null,
    expiresAt: body.expires_at ?? null,
    spendLimitNanos: body.spend_limit_usd == null ? null : spendLimitNanos(body.spend_limit_usd),
  };
}

/** A key's changes: a field left out stays as it is, null clears it. */
export function keyChanges(body: ApiKeyUpdateBody): KeyChanges {
  const changes: KeyChanges = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.expires_at !== undefined) changes.expiresAt = body.expires_at;
  if (body.spend_limit_usd !== undefined) {
    changes.spendLimitNanos =
      body.spend_limit_usd === null ? null : spendLimitNanos(body.spend_limit_usd);
  }
  return changes;
}

function spendLimitNanos(usd: number): number {
  try {
    return usdToNanos(usd);
  } catch {
    throw invalidRequest(
      "spend_limit_usd must be an amount of dollars with at most 9 decimals.",
      "invalid_spend_limit",
      "spend_limit_usd",
    );
  }
}

export function ledgerEntryObject(entry: LedgerEntryRecord) {
  return {
    object: "organization.ledger_entry" as const,
    id: entry.id,
    kind: entry.kind,
    amount_usd: nanosToUsd(entry.amount_nanos),
    balance_after_usd: nanosToUsd(entry.balance_after_nanos),
    reference: entry.reference,
    memo: entry.memo,
    created_at: entry.created_at,
  };
}

/** OpenAI's usage page: one bucket per day, each with its results. */
export function usagePageObject(page: UsagePage) {
  return {
    object: "page" as const,
    data: page.days.map((day) => ({
      object: "bucket" as const,
      start_time: day.startTime,
      end_time: day.endTime,
      results: day.results.map((totals) => ({
        object: "organization.usage.completions.result" as const,
        num_model_requests: totals.requests,
        input_tokens: totals.input_tokens,
        output_tokens: totals.output_tokens,
        cost_usd: nanosToUsd(totals.cost_nanos),
        model: totals.model,
        api_key_id: totals.api_key_id,
      })),
    })),
    has_more: page.nextPage !== null,
    next_page: page.nextPage === null ? null : String(page.nextPage),
  };
}

/** OpenAI's costs page: one bucket per day, amounts in dollars. */
export function costsPageObject(page: CostPage) {
  return {
    object: "page" as const,
    data: page.days.map((day) => ({
      object: "bucket" as const,
      start_time: day.startTime,
      end_time: day.endTime,
      results: day.results.map((total) => ({
        object: "organization.costs.result" as const,
        amount: { value: nanosToUsd(total.cost_nanos), currency: "usd" as const },
        line_item: total.line_item,
        project_id: null,
        model: total.model,
        api_key_id: total.api_key_id,
      })),
    })),
    has_more: page.nextPage !== null,
    next_page: page.nextPage === null ? null : String(page.nextPage),
  };
}

/** A report's end: `end_time`, default now, after `start_time`. */
export function queryEndTime(startTime: number, endTime: number | undefined, clock: Clock): number {
  // End_time is exclusive: by default the range ends after the current second, so what was
  // settled in this very second counts too.
  const end = endTime ?? unixSeconds(clock) + 1;
  if (end <= startTime) {
    throw invalidRequest("end_time must be after start_time.", "invalid_time_range", "end_time");
  }
  return end;
}

/** A `page` cursor: the start of a day inside the asked range, as `next_page` gives it. */
export function usagePageStart(page: string, startTime: number, endTime: number): number {
  const start = /^[0-9]{1,12}$/.test(page) ? Number(page) : Number.NaN;
  const firstDay = Math.floor(startTime / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  if (!(start % SECONDS_PER_DAY === 0 && start > firstDay && start < endTime)) {
    throw invalidRequest(
      "page must be a next_page of the same query.",
      "invalid_usage_page",
      "page",
    );
  }
  return start;
}
