import { describeAnswer } from "../answer";
import type { QuestionWithForecasts } from "../api/endpoints";
import type { Question } from "../api/types";
import { count } from "../format";
import { score } from "../scores";

const outcomeOf = (question: Question) =>
  question.outcome === null ? "–" : String(question.outcome);

/** A forecast's answer in words ("62.0% probability"); an answer that could not be read says so. */
function answerText(latest: QuestionWithForecasts["latest"]): string {
  if (latest === null) return "–";
  if (latest.answer === null) return "unread";
  const answer = JSON.stringify(latest.answer);
  return describeAnswer({ prose: "", answer, value: latest.answer }) ?? answer;
}

/** The latest forecast's score once its question resolved: Brier, or CRPS for a continuous one. */
const latestScore = (latest: QuestionWithForecasts["latest"]) =>
  score(latest?.scores?.brier ?? latest?.scores?.crps);

/** The questions of the track record, open and resolved, with the latest forecast of each and their count. */
export function TrackQuestions({ rows }: { rows: QuestionWithForecasts[] }) {
  if (rows.length === 0)
    return (
      <p role="status" className="muted">
        No questions yet: send <code>question_id</code> with <code>answer_type</code>, or register
        one with <code>POST /v1/questions</code>.
      </p>
    );
  return (
    <div className="table-wrap track-questions">
      <table>
        <caption className="visually-hidden">Questions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Text</th>
            <th scope="col">Answer type</th>
            <th scope="col">Status</th>
            <th scope="col">Outcome</th>
            <th scope="col">Latest forecast</th>
            <th scope="col" className="num">
              Its score
            </th>
            <th scope="col" className="num">
              Forecasts
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ question, forecasts, truncated, latest }) => (
            <tr key={question.id}>
              <th scope="row">
                <code>{question.id}</code>
              </th>
              <td className="reading">{question.text ?? <span className="muted">–</span>}</td>
              <td>{question.answer_type}</td>
              <td>
                <span className={`badge badge-question-${question.status}`}>{question.status}</span>
              </td>
              <td>{outcomeOf(question)}</td>
              <td>
                {answerText(latest)}
                {latest ? <div className="muted small">{latest.model}</div> : null}
              </td>
              <td className="num">{latestScore(latest)}</td>
              <td className="num">
                {count(forecasts)}
                {truncated ? "+" : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
