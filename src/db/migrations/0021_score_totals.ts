import { type Kysely, type Migration, type RawBuilder, sql } from "kysely";
import type { DialectName } from "../database.js";

/**
 * Running totals of the stored forecast scores, per organization, grouping (model, API key, tag),
 * group, day or month of the prediction date, answer type and calibration bin, so that a score
 * report adds up a few hundred rows rather than every forecast. Triggers on `forecasts` keep them
 * exact whichever statement scores, rescores (`--force`) or annuls a forecast. A question's tags
 * are written with it, before any forecast on it, and never change: the tags a forecast counts
 * under are read when its score changes.
 *
 * `grp` is '' and `grp_null` 1 for a forecast without an API key, and `calibration_bin` -1 for
 * a forecast without one, so that the unique key (NULLs distinct) matches on every upsert.
 */
export const scoreTotals = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

/** The columns summed, and what each forecast adds to them. */
const SUMS = ["imputed", "brier", "log_score", "crps", "probability", "outcome_value"] as const;
const KEY = [
  "organization_id",
  "group_kind",
  "period",
  "period_start",
  "grp",
  "grp_null",
  "answer_type",
  "calibration_bin",
] as const;

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  let table = db.schema
    .createTable("score_totals")
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("group_kind", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("period_start", "bigint", (c) => c.notNull())
    .addColumn("grp", "text", (c) => c.notNull())
    .addColumn("grp_null", "integer", (c) => c.notNull())
    .addColumn("answer_type", "text", (c) => c.notNull())
    .addColumn("calibration_bin", "integer", (c) => c.notNull())
    .addColumn("n", "bigint", (c) => c.notNull());
  for (const column of SUMS) {
    table = table.addColumn(column, "double precision", (c) => c.notNull());
  }
  await table.execute();
  // Reports read one organization's grouping and period over a range of period starts.
  await db.schema
    .createIndex("score_totals_key")
    .on("score_totals")
    .columns([...KEY])
    .unique()
    .execute();

  const forecastTotals = (row: "NEW" | "OLD", sign: 1 | -1) => upsertTotals(dialect, row, sign);
  if (dialect === "postgres") {
    await sql`
      create function sibyl_score_totals() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'UPDATE' then
          if OLD.scored = 1 then ${forecastTotals("OLD", -1)}; end if;
        end if;
        if NEW.scored = 1 then ${forecastTotals("NEW", 1)}; end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger forecasts_score_totals after insert or update on forecasts
      for each row execute function sibyl_score_totals()`.execute(db);
  } else {
    await sql`
      create trigger forecasts_score_totals_insert after insert on forecasts
      when NEW.scored = 1 begin ${forecastTotals("NEW", 1)}; end`.execute(db);
    await sql`
      create trigger forecasts_score_totals_unscore after update on forecasts
      when OLD.scored = 1 begin ${forecastTotals("OLD", -1)}; end`.execute(db);
    await sql`
      create trigger forecasts_score_totals_score after update on forecasts
      when NEW.scored = 1 begin ${forecastTotals("NEW", 1)}; end`.execute(db);
  }
  // Forecasts already scored before this migration.
  for (const group of ["model", "api_key", "tag"] as const) {
    for (const period of ["day", "month"] as const) {
      await backfill(dialect, group, period).execute(db);
    }
  }
}

/** The start of the UTC day or month of `date` (Unix seconds), in SQL. */
function periodStart(dialect: DialectName, period: "day" | "month", date: RawBuilder<unknown>) {
  if (period === "day") return sql`(${date} - ((${date} % 86400) + 86400) % 86400)`;
  return dialect === "postgres"
    ? sql`cast(extract(epoch from date_trunc('month', to_timestamp(${date}) at time zone 'UTC')) as bigint)`
    : sql`cast(strftime('%s', ${date}, 'unixepoch', 'start of month') as integer)`;
}

const COLUMNS = sql.raw([...KEY, "n", ...SUMS].join(", "));
const ON_CONFLICT = sql`on conflict (${sql.raw(KEY.join(", "))}) do update set ${sql.raw(
  ["n", ...SUMS].map((c) => `${c} = score_totals.${c} + excluded.${c}`).join(", "),
)}`;

/**
 * The statement a trigger runs to add `sign` times the forecast `row` (NEW or OLD) to the totals
 * of its model, its key and each of its question's tags, by day and by month. Literals only:
 * a trigger's body takes no parameters.
 */
function upsertTotals(dialect: DialectName, row: "NEW" | "OLD", sign: 1 | -1) {
  const f = (column: string) => sql.raw(`${row}.${column}`);
  const groups = sql`
    select 'model' as group_kind, ${f("model")} as grp, 0 as grp_null
    union all
    select 'api_key', coalesce(${f("api_key_id")}, ''), case when ${f("api_key_id")} is null then 1 else 0 end
    union all
    select 'tag', question_tags.tag, 0 from question_tags
    where question_tags.organization_id = ${f("organization_id")}
      and question_tags.question_id = ${f("question_id")}`;
  const date = f("prediction_date");
  const periods = sql`select 'day' as period, ${periodStart(dialect, "day", date)} as period_start
    union all select 'month', ${periodStart(dialect, "month", date)}`;
  const sums = SUMS.map((c) => sql.raw(`${sign} * coalesce(${row}.${c}, 0)`));
  return sql`insert into score_totals (${COLUMNS})
    select ${f("organization_id")}, g.group_kind, p.period, p.period_start, g.grp, g.grp_null,
      ${f("answer_type")}, coalesce(${f("calibration_bin")}, -1), ${sql.raw(String(sign))},
      ${sql.join(sums)}
    from (${groups}) g cross join (${periods}) p where true
    ${ON_CONFLICT}`;
}

/** Adds every scored forecast to the totals of one grouping and period. */
function backfill(
  dialect: DialectName,
  group: "model" | "api_key" | "tag",
  period: "day" | "month",
) {
  const grp = {
    model: sql`forecasts.model`,
    api_key: sql`coalesce(forecasts.api_key_id, '')`,
    tag: sql`question_tags.tag`,
  }[group];
  const grpNull = sql`case when ${group === "api_key" ? sql`forecasts.api_key_id is null` : sql`1 = 0`} then 1 else 0 end`;
  const start = periodStart(dialect, period, sql`forecasts.prediction_date`);
  const tags =
    group === "tag"
      ? sql`join question_tags on question_tags.organization_id = forecasts.organization_id
          and question_tags.question_id = forecasts.question_id`
      : sql``;
  const bin = sql`coalesce(forecasts.calibration_bin, -1)`;
  // Constants stay out of GROUP BY, where PostgreSQL refuses them.
  const key = sql`forecasts.organization_id, ${start}, ${grp}, ${grpNull}, forecasts.answer_type, ${bin}`;
  const sums = SUMS.map((c) => sql.raw(`sum(coalesce(forecasts.${c}, 0))`));
  return sql`insert into score_totals (${COLUMNS})
    select forecasts.organization_id, ${sql.lit(group)}, ${sql.lit(period)}, ${start}, ${grp},
      ${grpNull}, forecasts.answer_type, ${bin}, count(*), ${sql.join(sums)}
    from forecasts ${tags}
    where forecasts.scored = 1
    group by ${key}
    ${ON_CONFLICT}`;
}
