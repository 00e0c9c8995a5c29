import type { Reservation } from "../billing/ledger.js";
import { UpstreamError } from "../inference/errors.js";
import type { FinishReason, ProviderUsage, StreamEvent } from "../inference/provider.js";
import { annotationsOf } from "./annotations.js";
import { openAIFinishReason } from "./finish-reason.js";
import { recordChargedForecast } from "./forecast-entry.js";
import { countAnswer, forecastReading } from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import {
  type CompletionPlan,
  inferenceRequest,
  type PreparedCompletion,
  prepareCompletion,
} from "./plan.js";
import { billFor, settleDetails, usageObject } from "./pricing/bill.js";
import { answerReply } from "./repair.js";
import { researchReport } from "./research-report.js";
import type {
  ChatCompletionChunk,
  CompletionCaller,
  ForecastReading,
  TextCompletionChunk,
  UrlCitationAnnotation,
  Usage,
} from "./types.js";
import { countedUsage, UsageTally } from "./usage.js";

type Kind = "chat" | "text";
type ChunkOf<K extends Kind> = K extends "chat" ? ChatCompletionChunk : TextCompletionChunk;

interface Delta {
  role?: "assistant";
  content?: string;
  thinking?: string;
  annotations?: UrlCitationAnnotation[];
}

/**
 * Runs the paid preparation, starts the upstream stream (errors up to its first byte are
 * ordinary request errors) and returns the chunks to send. Whatever ends the stream, the hold is
 * settled exactly once: to the tokens generated when it ends or the client leaves, or released
 * when anything failed.
 */
export async function streamCompletion<K extends Kind>(
  deps: PipelineDeps,
  caller: CompletionCaller,
  plan: CompletionPlan,
  hold: Reservation,
  kind: K,
): Promise<AsyncIterable<ChunkOf<K>>> {
  let prepared: PreparedCompletion;
  let events: AsyncIterable<StreamEvent>;
  try {
    prepared = await prepareCompletion(deps, caller, plan, caller.signal);
    events = await prepared.provider.stream(inferenceRequest(prepared, caller.signal));
  } catch (error) {
    await deps.holds.release(hold);
    throw error;
  }
  return relay(deps, caller, prepared, hold, kind, events) as AsyncIterable<ChunkOf<K>>;
}

type AnyChunk = ChatCompletionChunk | TextCompletionChunk;

async function* relay(
  deps: PipelineDeps,
  caller: CompletionCaller,
  plan: PreparedCompletion,
  hold: Reservation,
  kind: Kind,
  events: AsyncIterable<StreamEvent>,
): AsyncGenerator<AnyChunk> {
  const stream = new RelayedStream(deps, caller, plan, hold, kind);
  try {
    for await (const event of events) {
      if (event.type === "usage") stream.reported = event.usage;
      else if (event.type === "delta") yield stream.delta(event);
      else yield* stream.finishChoice(event);
    }
    yield* stream.closingChunks(await stream.settle());
  } catch (error) {
    if (error instanceof UpstreamError && error.failure === "aborted") {
      if (!stream.done) await stream.settle();
      return;
    }
    if (!stream.done) await stream.release();
    throw error;
  } finally {
    // The consumer stopped reading (client gone): charge what was generated until then.
    if (!stream.done) await stream.settle();
  }
}

/** One stream as it is relayed: every choice's text so far, the usage, and the hold's fate. */
class RelayedStream {
  private readonly texts = new Map<number, string>();
  private readonly thoughts = new Map<number, string>();
  /** How the first choice's answer was read: a recorded forecast keeps its calibration. */
  private firstReading: ForecastReading | null = null;
  private readonly tally = new UsageTally();
  private readonly research: ReturnType<typeof researchReport>;
  /** The usage the upstream reported, if it did; else the tokens are counted. */
  reported: ProviderUsage | null = null;
  /** The hold was settled or released. */
  done = false;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly caller: CompletionCaller,
    private readonly plan: PreparedCompletion,
    private readonly hold: Reservation,
    private readonly kind: Kind,
  ) {
    this.research = kind === "chat" ? researchReport(plan) : null;
  }

  /** A piece of a choice's reply, passed on as it came. */
  delta(event: Extract<StreamEvent, { type: "delta" }>): AnyChunk {
    const { index } = event;
    const first = this.open(index);
    this.texts.set(index, (this.texts.get(index) ?? "") + (event.text ?? ""));
    if (event.thinking) {
      this.thoughts.set(index, (this.thoughts.get(index) ?? "") + event.thinking);
    }
    return this.chunk(index, streamDelta(first, event.text, event.thinking));
  }

  /** A choice's end: its answer read (and completed if need be), its sources, its reason. */
  async *finishChoice(event: Extract<StreamEvent, { type: "finish" }>): AsyncGenerator<AnyChunk> {
    const { deps, plan, kind } = this;
    const { index } = event;
    if (this.open(index) && kind === "chat")
      yield this.chunk(index, { role: "assistant", content: "" });
    const promptIndex = Math.floor(index / (plan.params.n || 1));
    const text = this.texts.get(index) ?? "";
    const answered = await answerReply(plan, promptIndex, text, this.caller.signal);
    let reading: ForecastReading | null = null;
    if (answered && plan.forecast) {
      reading = forecastReading(plan.forecast, answered);
      if (index === 0) this.firstReading = reading;
      countAnswer(deps.metrics, plan.model, plan.forecast, answered);
      if (answered.repairUsage) this.tally.add(answered.repairUsage);
      if (answered.suffix) {
        this.texts.set(index, (this.texts.get(index) ?? "") + answered.suffix);
        yield this.chunk(index, { content: answered.suffix });
      }
    }
    // A choice's last chunk cites the sources its reply cites and says how its answer was read.
    const annotations = kind === "chat" ? annotationsOf(plan, this.texts.get(index) ?? "") : null;
    const finish = openAIFinishReason(event.finishReason, kind);
    yield this.chunk(index, annotations ? { annotations } : {}, finish, reading);
  }

  /** The stream's last chunk reports the research: on the usage chunk, or a chunk of its own. */
  *closingChunks(usage: Usage): Generator<AnyChunk> {
    const { plan, research } = this;
    const report = research ? { research } : {};
    if (plan.includeUsageInStream) {
      yield this.kind === "chat"
        ? Object.assign(chatChunk(plan, []), { usage }, report)
        : Object.assign(textChunk(plan, []), { usage });
    } else if (research) {
      yield Object.assign(chatChunk(plan, []), report);
    }
  }

  /** Charges what was generated (the upstream's usage, else the counted tokens), once. */
  async settle(): Promise<Usage> {
    const { deps, caller, plan, hold } = this;
    this.done = true;
    const generated = [...this.texts.entries()].map(([index, text]) => ({
      text,
      thinking: this.thoughts.get(index) ?? null,
    }));
    this.tally.add(this.reported ?? countedUsage(plan, generated));
    const bill = billFor(plan, this.tally);
    let chargedNanos: number;
    try {
      const details = settleDetails(caller, plan, bill);
      const settlement = await deps.ledger.settle(hold, bill.totalNanos, details);
      chargedNanos = settlement.chargedNanos;
    } catch (error) {
      await deps.holds.release(hold);
      throw error;
    }
    const content = this.texts.get(0);
    const first =
      content === undefined ? undefined : { content, calibration: this.firstReading?.calibration };
    await recordChargedForecast(deps.forecasts, caller, plan, first, chargedNanos);
    return usageObject(plan, bill, chargedNanos);
  }

  /** Gives the hold back uncharged: the stream failed. */
  async release(): Promise<void> {
    this.done = true;
    await this.deps.holds.release(this.hold);
  }

  /** Whether this is the choice's first event (it is then known from here on). */
  private open(index: number): boolean {
    const first = !this.texts.has(index);
    if (first) this.texts.set(index, "");
    return first;
  }

  private chunk(
    index: number,
    delta: Delta,
    finish: FinishReason | null = null,
    forecast: ForecastReading | null = null,
  ): AnyChunk {
    const made =
      this.kind === "chat"
        ? chatChunk(this.plan, [{ index, delta, logprobs: null, finish_reason: finish }])
        : textChunk(this.plan, [
            { index, text: delta.content ?? "", logprobs: null, finish_reason: finish },
          ]);
    const [choice] = made.choices;
    if (forecast && choice) choice.forecast = forecast;
    return made;
  }
}

function chatChunk(
  plan: PreparedCompletion,
  choices: ChatCompletionChunk["choices"],
): ChatCompletionChunk {
  return {
    id: plan.id,
    object: "chat.completion.chunk",
    created: plan.created,
    model: plan.model,
    choices,
  };
}

function textChunk(
  plan: PreparedCompletion,
  choices: TextCompletionChunk["choices"],
): TextCompletionChunk {
  return {
    id: plan.id,
    object: "text_completion",
    created: plan.created,
    model: plan.model,
    choices,
  };
}

/**
 * A chunk's delta, set field by field: a literal made of spreads would get a new V8 shape for
 * every chunk on Node 20 (see prepareCompletion in plan.ts).
 */
function streamDelta(
  first: boolean,
  text: string | undefined,
  thinking: string | undefined,
): Delta {
  const delta: Delta = {};
  if (first) delta.role = "assistant";
  if (text) delta.content = text;
  if (thinking) delta.thinking = thinking;
  return delta;
}
