import { useState } from "react";
import { type Api, messageOf } from "../api/client";
import { type Evaluation, fileContent, fileText } from "../api/endpoints";
import { download } from "../csv";
import { count, usd, when } from "../format";
import { parseRate, pooledBrier, score } from "../scores";
import { QuestionTable } from "./evaluation-questions";
import { LiveRegion } from "./notice";
import { useLoad } from "./use-load";

/**
 * One backtest: its scores, its calibration plot and its files. The plot is shown as an image,
 * which can run no script whatever the file holds; report.html is only ever downloaded, never
 * opened under this page's origin.
 */
export function EvaluationReport({ api, evaluation }: { api: Api; evaluation: Evaluation }) {
  const { file, summary } = evaluation;
  const files = summary.report_files ?? {};
  const [message, setMessage] = useState<string | null>(null);
  const save = async (id: string, name: string) => {
    try {
      download(name, await fileContent(api, id));
    } catch (error) {
      setMessage(messageOf(error));
    }
  };
  const title = summary.question_set.name;
  return (
    <section className="card" aria-labelledby="report-heading">
      <h2 id="report-heading">Report: {title}</h2>
      <RunFacts evaluation={evaluation} />
      <ScoreTable evaluation={evaluation} />
      <OtherTypesTable evaluation={evaluation} />
      {summary.warnings?.length ? (
        <ul className="small">
          {summary.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {files.calibration_svg ? (
        <CalibrationPlot api={api} fileId={files.calibration_svg} title={title} />
      ) : null}
      {summary.questions?.length ? (
        <QuestionTable rows={summary.questions} models={summary.run.models} />
      ) : null}
      <div className="actions">
        {files.report_html ? (
          <button type="button" onClick={() => save(files.report_html as string, "report.html")}>
            Download report.html
          </button>
        ) : null}
        <button type="button" onClick={() => save(file.id, "summary.json")}>
          Download summary.json
        </button>
      </div>
      <LiveRegion tone="error">{message}</LiveRegion>
    </section>
  );
}

/** When the backtest ran, on how many questions and models, and whether it leaked. */
function RunFacts({ evaluation }: { evaluation: Evaluation }) {
  const { file, summary } = evaluation;
  return (
    <dl className="facts">
      <div>
        <dt>Run</dt>
        <dd>{when(file.created_at)}</dd>
      </div>
      <div>
        <dt>Questions</dt>
        <dd>{count(summary.question_set.questions)}</dd>
      </div>
      <div>
        <dt>Models</dt>
        <dd>{summary.run.models.join(", ")}</dd>
      </div>
      {summary.leak_check ? (
        <div>
          <dt>Leak check</dt>
          <dd>{summary.leak_check.ok ? "passed" : "FAILED"}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function ScoreTable({ evaluation }: { evaluation: Evaluation }) {
  const { summary } = evaluation;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Scores of {summary.question_set.name}</caption>
        <thead>
          <tr>
            <th scope="col">Forecaster</th>
            <NumberHeads
              labels={[
                "Binary n",
                "Pooled Brier",
                "ForecastBench overall",
                "Brier Index",
                "Log score",
                "Parse rate (first reply)",
                "Parse rate",
                "Cost",
              ]}
            />
          </tr>
        </thead>
        <tbody>
          {Object.entries(summary.models).map(([model, scores]) => (
            <tr key={model}>
              <th scope="row">{model}</th>
              <td className="num">{count(scores.n)}</td>
              <td className="num">{score(pooledBrier(scores))}</td>
              <td className="num">
                {scores.forecastbench ? score(scores.forecastbench.overall.brier) : "–"}
                {scores.forecastbench?.imputation?.over_cutoff ? " (over 5% imputed)" : ""}
              </td>
              <td className="num">
                {scores.forecastbench?.difficulty_adjusted?.brier_index.overall?.toFixed(1) ?? "–"}
              </td>
              <td className="num">{score(scores.log_score)}</td>
              <td className="num">{parseRate(scores.raw_parse_rate)}</td>
              <td className="num">{parseRate(scores.parse_rate)}</td>
              <td className="num">{scores.cost_usd === undefined ? "–" : usd(scores.cost_usd)}</td>
            </tr>
          ))}
          {Object.entries(summary.baselines ?? {}).map(([name, scores]) => (
            <tr key={name} className="baseline">
              <th scope="row">baseline: {name}</th>
              <td className="num">{count(scores.n)}</td>
              <td className="num">{score(pooledBrier(scores))}</td>
              <td className="num">–</td>
              <td className="num">–</td>
              <td className="num">{score(scores.log_score)}</td>
              <td className="num">–</td>
              <td className="num">–</td>
              <td className="num">–</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Multiple-choice and continuous scores, each with its own n. */
function OtherTypesTable({ evaluation }: { evaluation: Evaluation }) {
  const rows = Object.entries(evaluation.summary.models).filter(
    ([, scores]) => scores.multiple_choice || scores.continuous,
  );
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap">
      <table>
        <caption>Multiple-choice and continuous scores</caption>
        <thead>
          <tr>
            <th scope="col">Forecaster</th>
            <NumberHeads
              labels={[
                "Multiple choice n",
                "Multiclass Brier",
                "Continuous n",
                "CRPS",
                "CRPS / |outcome|",
              ]}
            />
          </tr>
        </thead>
        <tbody>
          {rows.map(([model, scores]) => (
            <tr key={model}>
              <th scope="row">{model}</th>
              <td className="num">
                {scores.multiple_choice ? count(scores.multiple_choice.n) : "–"}
              </td>
              <td className="num">{score(scores.multiple_choice?.brier)}</td>
              <td className="num">{scores.continuous ? count(scores.continuous.n) : "–"}</td>
              <td className="num">{score(scores.continuous?.crps)}</td>
              <td className="num">{score(scores.continuous?.scaled_crps)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Column heads over numbers, aligned as their cells are. */
function NumberHeads({ labels }: { labels: string[] }) {
  return labels.map((label) => (
    <th key={label} scope="col" className="num">
      {label}
    </th>
  ));
}

function CalibrationPlot({ api, fileId, title }: { api: Api; fileId: string; title: string }) {
  const [plot] = useLoad(
    async () =>
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await fileText(api, fileId))}`,
    [api, fileId],
  );
  if (plot.state === "loading") return <p className="muted">Loading the calibration plot…</p>;
  if (plot.state === "failed") return <LiveRegion tone="error">{plot.message}</LiveRegion>;
  return (
    <figure className="calibration">
      <img
        src={plot.value}
        alt={`Calibration plot of ${title}: forecast probability against observed frequency, per model`}
      />
    </figure>
  );
}
