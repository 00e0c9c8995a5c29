import { describeAnswer, type ParsedAnswer, parseAnswer } from "../answer";
import type { ChatCompletion, EnsembleResult, ResearchReport } from "../api/types";
import { count, usd } from "../format";

const costOf = (value: number | null | undefined) => (value == null ? "—" : usd(value));

/** A completion as the playground shows it: answer, costs, thinking, citations, ensemble. */
export function PlaygroundAnswer({ completion }: { completion: ChatCompletion }) {
  const message = completion.choices[0]?.message;
  const parsed = parseAnswer(message?.content ?? "");
  const reading = describeAnswer(parsed);
  const usage = completion.usage;
  return (
    <section className="card" aria-labelledby="answer-heading">
      <h2 id="answer-heading">Answer</h2>
      <AnswerFacts completion={completion} parsed={parsed} reading={reading} />
      {usage ? <CostSplit usage={usage} /> : null}
      {message?.thinking ? (
        <details data-testid="thinking">
          <summary>Thinking</summary>
          <div className="reply">{message.thinking}</div>
        </details>
      ) : null}
      <h3>Reply</h3>
      <div className="reply">{parsed.prose || <span className="muted">(no prose)</span>}</div>
      {completion.research ? <Sources research={completion.research} /> : null}
      {completion.ensemble ? <EnsembleMembers ensemble={completion.ensemble} /> : null}
    </section>
  );
}

function Sources({ research }: { research: ResearchReport }) {
  const dropped = Object.values(research.dropped).reduce((sum, count) => sum + count, 0);
  return (
    <>
      <h3>Sources given to the model</h3>
      {research.sources.length === 0 ? (
        <p className="muted" data-testid="citations">
          Research found nothing known before the cutoff.
        </p>
      ) : (
        <ol data-testid="citations">
          {research.sources.map((source) => (
            <li key={source.number}>
              <a href={source.url} rel="noreferrer noopener" target="_blank">
                {source.title || source.url}
              </a>
              <span className="muted">
                {" · published "}
                {source.published_at ? source.published_at.slice(0, 10) : "date not given"}
                {source.first_seen_at ? ` · first seen ${source.first_seen_at.slice(0, 10)}` : ""}
                {` · ${source.provider}, ${source.trust}`}
              </span>
            </li>
          ))}
        </ol>
      )}
      {dropped > 0 ? (
        <p className="muted" data-testid="dropped">
          {dropped} result{dropped === 1 ? "" : "s"} not given:{" "}
          {Object.entries(research.dropped)
            .map(([reason, count]) => `${reason.replaceAll("_", " ")} ${count}`)
            .join(", ")}
        </p>
      ) : null}
    </>
  );
}

function EnsembleMembers({ ensemble }: { ensemble: EnsembleResult }) {
  return (
    <>
      <h3>
        Ensemble: {ensemble.samples_answered} of {ensemble.samples_requested} samples answered (
        {ensemble.aggregate})
      </h3>
      <table data-testid="ensemble">
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Answer</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {ensemble.samples.map((sample) => (
            <tr key={sample.index}>
              <th scope="row">{sample.index + 1}</th>
              <td>
                <code>{sample.answer === null ? "none" : JSON.stringify(sample.answer)}</code>
              </td>
              <td>{sample.answer_status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function AnswerFacts(props: {
  completion: ChatCompletion;
  parsed: ParsedAnswer;
  reading: string | null;
}) {
  const { completion, parsed, reading } = props;
  const usage = completion.usage;
  return (
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
  );
}

function CostSplit({ usage }: { usage: NonNullable<ChatCompletion["usage"]> }) {
  return (
    <table className="cost-split" data-testid="cost-split">
      <caption>Cost split</caption>
      <tbody>
        <tr>
          <th scope="row">Inference</th>
          <td className="num">{costOf(usage.inference_cost_usd)}</td>
        </tr>
        <tr>
          <th scope="row">Research</th>
          <td className="num">{costOf(usage.research_cost_usd)}</td>
        </tr>
        <tr>
          <th scope="row">Classification</th>
          <td className="num">{costOf(usage.classification_cost_usd)}</td>
        </tr>
      </tbody>
    </table>
  );
}
