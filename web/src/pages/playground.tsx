import { type FormEvent, useState } from "react";
import { type Api, messageOf } from "../api/client";
import { complete, models as listModels } from "../api/endpoints";
import type { ChatCompletion } from "../api/types";
import { LiveRegion } from "../components/notice";
import { useLoad } from "../components/use-load";
import { PlaygroundAnswer } from "./playground-answer";

const SOURCES = [
  { value: "news_search", label: "News archive (news_search)" },
  { value: "web_search", label: "Web search (web_search, no cutoff)" },
];
const EFFORTS = ["", "low", "medium", "high"];
const AGGREGATES = ["median", "mean", "logit_mean", "trimmed_mean"];

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
  const [sources, setSources] = useState<string[]>([]);
  const [effort, setEffort] = useState("");
  const [samples, setSamples] = useState(1);
  const [aggregate, setAggregate] = useState("median");
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
          researchSources: sources,
          reasoningEffort: effort,
          samples,
          aggregate,
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
            <label htmlFor="pg-date">Prediction date and research cutoff (optional)</label>
            <input
              id="pg-date"
              type="date"
              value={predictionDate}
              onChange={(event) => setPredictionDate(event.target.value)}
              aria-describedby="pg-date-help"
            />
            <small id="pg-date-help" className="muted">
              The day the model treats as today, and the research cutoff; default today.
            </small>
          </div>
          <fieldset className="field">
            <legend>Research</legend>
            {SOURCES.map((source) => (
              <label key={source.value} className="check">
                <input
                  type="checkbox"
                  checked={sources.includes(source.value)}
                  onChange={(event) =>
                    setSources((chosen) =>
                      event.target.checked
                        ? [...chosen, source.value]
                        : chosen.filter((name) => name !== source.value),
                    )
                  }
                />{" "}
                {source.label}
              </label>
            ))}
            <small className="muted">
              Searched as of the prediction date: nothing published after it reaches the model.
            </small>
          </fieldset>
          <div className="field">
            <label htmlFor="pg-effort">Reasoning effort</label>
            <select
              id="pg-effort"
              value={effort}
              onChange={(event) => setEffort(event.target.value)}
            >
              {EFFORTS.map((level) => (
                <option key={level} value={level}>
                  {level || "model default"}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="pg-samples">Ensemble samples</label>
            <input
              id="pg-samples"
              type="number"
              min={1}
              max={16}
              value={samples}
              onChange={(event) =>
                setSamples(Math.max(1, Math.min(16, Number(event.target.value) || 1)))
              }
              aria-describedby="pg-samples-help"
            />
            <small id="pg-samples-help" className="muted">
              1: one call; 2–16: that many calls, combined (needs a numeric answer type).
            </small>
          </div>
          <div className="field">
            <label htmlFor="pg-aggregate">Aggregate</label>
            <select
              id="pg-aggregate"
              value={aggregate}
              disabled={samples < 2}
              onChange={(event) => setAggregate(event.target.value)}
            >
              {AGGREGATES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
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
        {result ? <PlaygroundAnswer completion={result} /> : null}
      </div>
    </div>
  );
}
