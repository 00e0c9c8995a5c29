import type { QuestionWithForecasts } from "../api/endpoints";
import type { Question } from "../api/types";
import { count } from "../format";

const outcomeOf = (question: Question) =>
  question.outcome === null ? "–" : String(question.outcome);

/** The questions of the track record, open and resolved, with their forecast counts. */
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
            <th scope="col" className="num">
              Forecasts
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ question, forecasts, truncated }) => (
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
