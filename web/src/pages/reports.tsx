import { useState } from "react";
import type { Api } from "../api/client";
import { type Evaluation, evaluations } from "../api/endpoints";
import { EvaluationReport } from "../components/evaluation-report";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { count, when } from "../format";
import { parseRate, pooledBrier, score } from "../scores";

/** The backtests `sibyl eval run` kept on the server, and the report of the one opened. */
export function Reports({ api }: { api: Api }) {
  const [list] = useLoad(() => evaluations(api), [api]);
  const [openId, setOpenId] = useState<string | null>(null);
  if (list.state === "loading") return <Loading what="evaluations" />;
  if (list.state === "failed") return <LiveRegion tone="error">{list.message}</LiveRegion>;
  const opened = list.value.find((evaluation) => evaluation.file.id === openId);
  return (
    <div className="stack">
      {list.value.length === 0 ? (
        <HowToRun />
      ) : (
        <EvaluationTable evaluations={list.value} openId={openId} onOpen={setOpenId} />
      )}
      {opened ? <EvaluationReport api={api} evaluation={opened} /> : null}
      {list.value.length > 0 ? <HowToRun /> : null}
    </div>
  );
}

interface EvaluationTableProps {
  evaluations: Evaluation[];
  openId: string | null;
  onOpen: (id: string) => void;
}

function EvaluationTable({ evaluations, openId, onOpen }: EvaluationTableProps) {
  return (
    <section className="card" aria-labelledby="evaluations-heading">
      <h2 id="evaluations-heading">Backtests, newest first</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Question set</th>
              <th scope="col">Model</th>
              <th scope="col">Run</th>
              <th scope="col" className="num">
                Questions
              </th>
              <th scope="col" className="num">
                Brier
              </th>
              <th scope="col" className="num">
                Log score
              </th>
              <th scope="col" className="num">
                Parse rate
              </th>
              <th scope="col">
                <span className="visually-hidden">Report</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {evaluations.flatMap(({ file, summary }) =>
              Object.entries(summary.models).map(([model, scores]) => (
                <tr key={`${file.id}-${model}`} className={file.id === openId ? "selected" : ""}>
                  <th scope="row">{summary.question_set.name}</th>
                  <td>{model}</td>
                  <td>{when(file.created_at)}</td>
                  <td className="num">{count(summary.question_set.questions)}</td>
                  <td className="num">{score(pooledBrier(scores))}</td>
                  <td className="num">{score(scores.log_score)}</td>
                  <td className="num">{parseRate(scores.parse_rate)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Open the report of ${summary.question_set.name} for ${model}`}
                      aria-pressed={file.id === openId}
                      onClick={() => onOpen(file.id)}
                    >
                      Report
                    </button>
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function HowToRun() {
  return (
    <section className="card prose" aria-labelledby="how-heading">
      <h2 id="how-heading">How backtests get here</h2>
      <p>
        <code>sibyl eval run</code>, a client of this API, sends ForecastBench questions through the
        batch API as of a past date, scores the answers, writes its report to a folder of your
        choosing and keeps a copy here (its summary, <code>report.html</code> and calibration plot,
        as files with purpose <code>evaluation</code>). <code className="nowrap">--no-upload</code>{" "}
        keeps it on your machine only.
      </p>
      <pre>
        <code>
          {
            "SIBYL_API_KEY=sk_… sibyl eval run --questions questions.json \\\n  --resolutions resolutions.json --model sibyl-baseline --out backtest/"
          }
        </code>
      </pre>
    </section>
  );
}
