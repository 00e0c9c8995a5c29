import { useState } from "react";
import type { Api } from "../api/client";
import { allKeys, questionPage, type ScoreGrouping, scores } from "../api/endpoints";
import type { ScoreGroup } from "../api/types";
import { CalibrationChart } from "../components/calibration-chart";
import { LiveRegion, Loading } from "../components/notice";
import { ScoreOverTimeChart } from "../components/score-over-time-chart";
import { ScoreTable } from "../components/score-table";
import { TrackQuestions } from "../components/track-questions";
import { useLoad } from "../components/use-load";

const GROUPINGS: { groupBy: ScoreGrouping; label: string }[] = [
  { groupBy: "model", label: "Model" },
  { groupBy: "api_key", label: "API key" },
  { groupBy: "tag", label: "Tag" },
];

/** The live record: scores of resolved forecasts, their calibration, and every question. */
export function TrackRecord({ api }: { api: Api }) {
  return (
    <div className="stack">
      <Scores api={api} />
      <Questions api={api} />
    </div>
  );
}

function GroupBySelect(props: {
  value: ScoreGrouping;
  onChange: (grouping: ScoreGrouping) => void;
}) {
  return (
    <div className="field inline-field">
      <label htmlFor="scores-group">Group by</label>
      <select
        id="scores-group"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as ScoreGrouping)}
      >
        {GROUPINGS.map((entry) => (
          <option key={entry.groupBy} value={entry.groupBy}>
            {entry.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** How a score group is named: a key by its name where the key may list keys, else as given. */
function useGroupNames(api: Api, groupBy: ScoreGrouping) {
  // An inference key cannot list keys: their ids are shown instead of their names.
  const [keys] = useLoad(() => allKeys(api).catch(() => []), [api]);
  const keyNames = new Map(
    keys.state === "ready" ? keys.value.map((key) => [key.id, key.name ?? key.redacted_value]) : [],
  );
  return (group: string | null) =>
    group === null ? "none" : groupBy === "api_key" ? (keyNames.get(group) ?? group) : group;
}

function Scores({ api }: { api: Api }) {
  const [groupBy, setGroupBy] = useState<ScoreGrouping>("model");
  // undefined: the first group with binary forecasts.
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const [report] = useLoad(() => scores(api, groupBy, "month"), [api, groupBy]);
  const nameOf = useGroupNames(api, groupBy);
  const label = GROUPINGS.find((entry) => entry.groupBy === groupBy)?.label ?? groupBy;
  const groups = report.state === "ready" ? report.value.data : [];
  const plotted =
    chosen === undefined
      ? groups.find((entry) => entry.binary.calibration.length > 0)
      : groups.find((entry) => entry.group === chosen);

  return (
    <section className="card" aria-labelledby="scores-heading">
      <div className="section-head">
        <h2 id="scores-heading">Scores of resolved forecasts</h2>
        <GroupBySelect
          value={groupBy}
          onChange={(grouping) => {
            setGroupBy(grouping);
            setChosen(undefined);
          }}
        />
      </div>
      {report.state === "loading" ? <Loading what="scores" /> : null}
      {report.state === "failed" ? <LiveRegion tone="error">{report.message}</LiveRegion> : null}
      {report.state === "ready" ? (
        <>
          <ScoreTable
            groups={groups}
            label={label}
            nameOf={nameOf}
            plotted={plotted?.group ?? null}
            onPlot={setChosen}
          />
          {plotted ? (
            <ScoreOverTime
              api={api}
              groupBy={groupBy}
              group={plotted}
              name={nameOf(plotted.group)}
            />
          ) : null}
          {plotted && plotted.binary.calibration.length > 0 ? (
            <CalibrationChart bins={plotted.binary.calibration} group={nameOf(plotted.group)} />
          ) : null}
        </>
      ) : null}
      <p className="muted small">
        Lower Brier is better; the log score is the mean log of the probability given to the outcome
        (higher is better). Unread answers count as 0.5, or uniform over the options.
      </p>
    </section>
  );
}

/** Months within this span are drawn by week instead. */
const WEEKLY_SPAN_SECONDS = 120 * 86_400;

/** The plotted group's Brier by month, or by week when its forecasts span a few months only. */
function ScoreOverTime(props: {
  api: Api;
  groupBy: ScoreGrouping;
  group: ScoreGroup;
  name: string;
}) {
  const { api, groupBy, group, name } = props;
  const months = group.series ?? [];
  const span = (months.at(-1)?.start ?? 0) - (months[0]?.start ?? 0);
  const weekly = months.length > 0 && span < WEEKLY_SPAN_SECONDS;
  const [weeks] = useLoad(
    async () => (weekly ? scores(api, groupBy, "week") : null),
    [api, groupBy, weekly],
  );
  if (!weekly) return <ScoreOverTimeChart series={months} bucket="month" group={name} />;
  if (weeks.state !== "ready" || weeks.value === null) return null;
  const own = weeks.value.data.find((entry) => entry.group === group.group);
  return <ScoreOverTimeChart series={own?.series ?? []} bucket="week" group={name} />;
}

function Questions({ api }: { api: Api }) {
  // The cursor of each page shown so far: the last question id of the page before it.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const [page] = useLoad(() => questionPage(api, after), [api, after]);
  return (
    <section className="card" aria-labelledby="questions-heading">
      <h2 id="questions-heading">Questions, newest first</h2>
      {page.state === "loading" ? <Loading what="questions" /> : null}
      {page.state === "failed" ? <LiveRegion tone="error">{page.message}</LiveRegion> : null}
      {page.state === "ready" ? (
        <>
          <TrackQuestions rows={page.value.questions} />
          <nav className="pager" aria-label="Question pages">
            <button
              type="button"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer questions
            </button>
            <span className="muted small" aria-live="polite">
              Page {cursors.length + 1}
            </span>
            <button
              type="button"
              disabled={!page.value.hasMore || !page.value.lastId}
              onClick={() => setCursors([...cursors, page.value.lastId as string])}
            >
              Older questions
            </button>
          </nav>
        </>
      ) : null}
    </section>
  );
}
