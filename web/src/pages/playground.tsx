import { type FormEvent, useState } from "react";
import { describeAnswer, parseAnswer } from "../answer";
import { type Api, messageOf } from "../api/client";
import { complete, models as listModels } from "../api/endpoints";
import type { ChatCompletion } from "../api/types";
import { LiveRegion } from "../components/notice";
import { useLoad } from "../components/use-load";
import { count, usd } from "../format";

const ANSWER_TYPES = [
  { value: "", label: "none (prose only)" },
  { value: "auto", label: "auto (classified first)" },
  { value: "binary", label: "binary" },
  { value: "multiple_choice", label: "multiple choice" },
  { value: "continuous", label: "continuous" },
  { value: "CONTINUOUS_VALUE_ONLY", label: "continuous, value only" },
  { value: "free_response", label: "free response" },
];

export function Playground({ api }: { api: Api }) {
  const [catalogue] = useLoad(() => listModels(api), [api]);
  const [model, setModel] = useState("");
  const [answerType, setAnswerType] = useState("binary");
  const [predictionDate, setPredictionDate] = useState("");
  const [question, setQuestion] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ChatCompletion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosenModel =
    model || (catalogue.state === "ready" ? (catalogue.value.data[0]?.id ?? "") : "");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(
        await complete(api, {
          model: chosenModel,
          question,
          answerType,
          predictionDate: predictionDate ? `${predictionDate}T00:00:00Z` : "",
        }),
      );
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <section className="card" aria-labelledby="ask-heading">
        <h2 id="ask-heading">Ask one question</h2>
        <form onSubmit={submit} className="form-grid">
          <div className="field field-wide">
            <label htmlFor="pg-question">Question</label>
            <textarea
              id="pg-question"
              rows={4}
              required
              value={question}
              placeholder="Will it rain in Paris tomorrow?"
              onChange={(event) => setQuestion(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="pg-model">Model</label>
            <select
              id="pg-model"
              value={chosenModel}
              onChange={(event) => setModel(event.target.value)}
              required
            >
              {catalogue.state === "ready"
                ? catalogue.value.data.map((entry) => (
                    <option key={entry.id} value={entry.id}>
                      {entry.id}
                    </option>
                  ))
                : null}
            </select>
          </div>
          <div className="field">
            <label htmlFor="pg-answer-type">Answer type</label>
            <select
              id="pg-answer-type"
              value={answerType}
              onChange={(event) => setAnswerType(event.target.value)}
            >
              {ANSWER_TYPES.map((type) => (
                <option key={type.value} value={type.value}>
                  {type.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="pg-date">Prediction date (optional)</label>
            <input
              id="pg-date"
              type="date"
              value={predictionDate}
              onChange={(event) => setPredictionDate(event.target.value)}
              aria-describedby="pg-date-help"
            />
            <small id="pg-date-help" className="muted">
              The day the model treats as today; default today.
            </small>
          </div>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy || !chosenModel}>
              {busy ? "Asking…" : "Send"}
            </button>
          </div>
        </form>
        {catalogue.state === "failed" ? (
          <LiveRegion tone="error">{catalogue.message}</LiveRegion>
        ) : null}
      </section>
      <div aria-live="polite" aria-busy={busy}>
        {busy ? <p className="muted">Waiting for the model…</p> : null}
        {error ? <p className="notice notice-error">{error}</p> : null}
        {result ? <Answer completion={result} /> : null}
      </div>
    </div>
  );
}

function Answer({ completion }: { completion: ChatCompletion }) {
  const content = completion.choices[0]?.message.content ?? "";
  const parsed = parseAnswer(content);
  const reading = describeAnswer(parsed);
  const usage = completion.usage;
  return (
    <section className="card" aria-labelledby="answer-heading">
      <h2 id="answer-heading">Answer</h2>
      <dl className="facts">
        <div>
          <dt>Structured answer</dt>
          <dd data-testid="parsed-answer">
            {parsed.answer === null ? (
              <span className="muted">none</span>
            ) : (
              <code>{parsed.answer}</code>
            )}
            {reading && reading !== parsed.answer ? (
              <span className="reading"> ({reading})</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="answer-cost">
            {usage?.cost_usd == null ? "not reported" : usd(usage.cost_usd)}
          </dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>
            {usage
              ? `${count(usage.prompt_tokens)} in, ${count(usage.completion_tokens)} out`
              : "not reported"}
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd>{completion.model}</dd>
        </div>
      </dl>
      <h3>Reply</h3>
      <div className="reply">{parsed.prose || <span className="muted">(no prose)</span>}</div>
    </section>
  );
}
