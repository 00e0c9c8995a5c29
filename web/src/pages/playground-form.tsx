import type { FormEvent } from "react";
import {
  type Choice,
  PredictionDateField,
  QuestionField,
  ResearchFieldset,
  SamplesField,
  SelectField,
} from "./playground-fields";
import type { AskSettings, UpdateSetting } from "./playground-settings";

const SOURCES: Choice[] = [
  { value: "news_search", label: "News archive (news_search)" },
  { value: "web_search", label: "Web search (web_search, no cutoff)" },
];
const EFFORTS: Choice[] = ["", "low", "medium", "high"].map((level) => ({
  value: level,
  label: level || "model default",
}));
const AGGREGATES: Choice[] = ["median", "mean", "logit_mean", "trimmed_mean"].map((name) => ({
  value: name,
  label: name,
}));
const ANSWER_TYPES: Choice[] = [
  { value: "", label: "none (prose only)" },
  { value: "auto", label: "auto (classified first)" },
  { value: "binary", label: "binary" },
  { value: "multiple_choice", label: "multiple choice" },
  { value: "continuous", label: "continuous" },
  { value: "CONTINUOUS_VALUE_ONLY", label: "continuous, value only" },
  { value: "free_response", label: "free response" },
];

/** How many calls to make and how to combine them; combining needs at least two. */
function EnsembleFields({ settings, update }: { settings: AskSettings; update: UpdateSetting }) {
  return (
    <>
      <SamplesField value={settings.samples} onChange={(value) => update("samples", value)} />
      <SelectField
        id="pg-aggregate"
        label="Aggregate"
        value={settings.aggregate}
        choices={AGGREGATES}
        onChange={(value) => update("aggregate", value)}
        disabled={settings.samples < 2}
      />
    </>
  );
}

export function AskForm(props: {
  settings: AskSettings;
  update: UpdateSetting;
  models: string[];
  chosenModel: string;
  busy: boolean;
  onSubmit: () => void;
}) {
  const { settings, update } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <form onSubmit={submit} className="form-grid">
      <QuestionField value={settings.question} onChange={(value) => update("question", value)} />
      <SelectField
        id="pg-model"
        label="Model"
        value={props.chosenModel}
        choices={props.models.map((id) => ({ value: id, label: id }))}
        onChange={(value) => update("model", value)}
        required
      />
      <SelectField
        id="pg-answer-type"
        label="Answer type"
        value={settings.answerType}
        choices={ANSWER_TYPES}
        onChange={(value) => update("answerType", value)}
      />
      <PredictionDateField
        value={settings.predictionDate}
        onChange={(value) => update("predictionDate", value)}
      />
      <ResearchFieldset
        sources={SOURCES}
        chosen={settings.sources}
        onChange={(chosen) => update("sources", chosen)}
      />
      <SelectField
        id="pg-effort"
        label="Reasoning effort"
        value={settings.effort}
        choices={EFFORTS}
        onChange={(value) => update("effort", value)}
      />
      <EnsembleFields settings={settings} update={update} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.busy || !props.chosenModel}>
          {props.busy ? "Asking…" : "Send"}
        </button>
      </div>
    </form>
  );
}
