export interface Choice {
  value: string;
  label: string;
}

export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  required?: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        required={props.required}
        disabled={props.disabled}
      >
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function QuestionField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="field field-wide">
      <label htmlFor="pg-question">Question</label>
      <textarea
        id="pg-question"
        rows={4}
        required
        value={props.value}
        placeholder="Will it rain in Paris tomorrow?"
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

export function PredictionDateField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label htmlFor="pg-date">Prediction date and research cutoff (optional)</label>
      <input
        id="pg-date"
        type="date"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-describedby="pg-date-help"
      />
      <small id="pg-date-help" className="muted">
        The day the model treats as today, and the research cutoff; default today.
      </small>
    </div>
  );
}

const clampSamples = (typed: string) => Math.max(1, Math.min(16, Number(typed) || 1));

export function SamplesField(props: { value: number; onChange: (value: number) => void }) {
  return (
    <div className="field">
      <label htmlFor="pg-samples">Ensemble samples</label>
      <input
        id="pg-samples"
        type="number"
        min={1}
        max={16}
        value={props.value}
        onChange={(event) => props.onChange(clampSamples(event.target.value))}
        aria-describedby="pg-samples-help"
      />
      <small id="pg-samples-help" className="muted">
        1: one call; 2–16: that many calls, combined (needs a numeric answer type).
      </small>
    </div>
  );
}

export function ResearchFieldset(props: {
  sources: readonly Choice[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  const toggle = (source: string, checked: boolean) =>
    props.onChange(
      checked ? [...props.chosen, source] : props.chosen.filter((name) => name !== source),
    );
  return (
    <fieldset className="field">
      <legend>Research</legend>
      {props.sources.map((source) => (
        <label key={source.value} className="check">
          <input
            type="checkbox"
            checked={props.chosen.includes(source.value)}
            onChange={(event) => toggle(source.value, event.target.checked)}
          />{" "}
          {source.label}
        </label>
      ))}
      <small className="muted">
        Searched as of the prediction date: nothing published after it reaches the model.
      </small>
    </fieldset>
  );
}
