import { type FormEvent, useState } from "react";
import type { UsageFilter } from "../api/endpoints";
import type { ApiKey } from "../api/types";
import { LiveRegion } from "../components/notice";
import { dayStart, isoDay } from "../format";
import { SECONDS_PER_DAY, utcDayStart } from "./shared";

/** The last seven UTC days, today included, grouped by model and key. */
export const initialUsageFilter = (): UsageFilter => ({
  start: utcDayStart(6),
  end: utcDayStart(-1),
  groupBy: ["model", "api_key_id"],
});

interface Choice {
  value: string;
  label: string;
}

/** The filter for the typed range, or null when it ends before it starts. */
function filterOf(from: string, to: string, model: string, keyId: string): UsageFilter | null {
  const start = dayStart(from);
  const end = dayStart(to) + SECONDS_PER_DAY;
  if (!(end > start)) return null;
  return {
    start,
    end,
    groupBy: ["model", "api_key_id"],
    ...(model ? { models: [model] } : {}),
    ...(keyId ? { apiKeyIds: [keyId] } : {}),
  };
}

export function UsageFilters(props: {
  models: string[];
  keys: ApiKey[];
  onApply: (filter: UsageFilter) => void;
}) {
  const [from, setFrom] = useState(isoDay(utcDayStart(6)));
  const [to, setTo] = useState(isoDay(utcDayStart(0)));
  const [model, setModel] = useState("");
  const [keyId, setKeyId] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter = filterOf(from, to, model, keyId);
    setFormError(filter ? null : "The end date must be on or after the start date.");
    if (filter) props.onApply(filter);
  };
  return (
    <section className="card" aria-labelledby="filter-heading">
      <h2 id="filter-heading">Filters</h2>
      <form onSubmit={apply} className="form-grid">
        <DayField id="usage-from" label="From (UTC day)" value={from} onChange={setFrom} />
        <DayField id="usage-to" label="To (UTC day, included)" value={to} onChange={setTo} />
        <AllOrOneSelect
          id="usage-model"
          label="Model"
          all="All models"
          value={model}
          onChange={setModel}
          choices={props.models.map((id) => ({ value: id, label: id }))}
        />
        <AllOrOneSelect
          id="usage-key"
          label="API key"
          all="All keys"
          value={keyId}
          onChange={setKeyId}
          choices={props.keys.map((key) => ({
            value: key.id,
            label: key.name ?? key.redacted_value,
          }))}
        />
        <div className="form-actions">
          <button type="submit" className="primary">
            Show usage
          </button>
        </div>
      </form>
      <LiveRegion tone="error">{formError}</LiveRegion>
    </section>
  );
}

function DayField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="date"
        required
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** A select whose empty first option means "no filter". */
function AllOrOneSelect(props: {
  id: string;
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  choices: Choice[];
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">{props.all}</option>
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
