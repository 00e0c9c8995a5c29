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

async function* relay(
  deps: PipelineDeps,
  caller: CompletionCaller,
  plan: PreparedCompletion,
  hold: Reservation,
  kind: Kind,
  events: AsyncIterable<StreamEvent>,
): AsyncGenerator<ChatCompletionChunk | TextCompletionChunk> {
  const texts = new Map<number, string>();
  const thoughts = new Map<number, string>();
  /** How the first choice's answer was read: a recorded forecast keeps its calibration. */
  let firstReading: ForecastReading | null = null;
  const tally = new UsageTally();
  const research = kind === "chat" ? researchReport(plan) : null;
  let reported: ProviderUsage | null = null;
  let done = false;

  const chunk = (
    index: number,
    delta: Delta,
    finish: FinishReason | null = null,
    forecast: ForecastReading | null = null,
  ) => {
    const made =
      kind === "chat"
        ? chatChunk(plan, [{ index, delta, logprobs: null, finish_reason: finish }])
        : textChunk(plan, [
            { index, text: delta.content ?? "", logprobs: null, finish_reason: finish },
          ]);
    const [choice] = made.choices;
    if (forecast && choice) choice.forecast = forecast;
    return made;
  };

  const settle = async (): Promise<Usage> => {
    done = true;
    const generated = [...texts.entries()].map(([index, text]) => ({
      text,
      thinking: thoughts.get(index) ?? null,
    }));
    tally.add(reported ?? countedUsage(plan, generated));
    const bill = billFor(plan, tally);
    let chargedNanos: number;
    try {
      const details = settleDetails(caller, plan, bill);
      const settlement = await deps.ledger.settle(hold, bill.totalNanos, details);
      chargedNanos = settlement.chargedNanos;
    } catch (error) {
      await deps.holds.release(hold);
      throw error;
    }
    const content = texts.get(0);
    const first =
      content === undefined ? undefined : { content, calibration: firstReading?.calibration };
    await recordChargedForecast(deps.forecasts, caller, plan, first, chargedNanos);
    return usageObject(plan, bill, chargedNanos);
  };

  try {
    for await (const event of events) {
      if (event.type === "usage") {
        reported = event.usage;
        continue;
      }
      const { index } = event;
      const first = !texts.has(index);
      if (first) texts.set(index, "");
      if (event.type === "delta") {
        texts.set(index, (texts.get(index) ?? "") + (event.text ?? ""));
        if (event.thinking) thoughts.set(index, (thoughts.get(index) ?? "") + event.thinking);
        yield chunk(index, streamDelta(first, event.text, event.thinking));
        continue;
      }
      if (first && kind === "chat") yield chunk(index, { role: "assistant", content: "" });
      const promptIndex = Math.floor(index / (plan.params.n || 1));
      const answered = await answerReply(plan, promptIndex, texts.get(index) ?? "", caller.signal);
      let reading: ForecastReading | null = null;
      if (answered && plan.forecast) {
        reading = forecastReading(plan.forecast, answered);
        if (index === 0) firstReading = reading;
        countAnswer(deps.metrics, plan.model, plan.forecast, answered);
        if (answered.repairUsage) tally.add(answered.repairUsage);
        if (answered.suffix) {
          texts.set(index, (texts.get(index) ?? "") + answered.suffix);
          yield chunk(index, { content: answered.suffix });
        }
      }
      // A choice's last chunk cites the sources its reply cites and says how its answer was read.
      const annotations = kind === "chat" ? annotationsOf(plan, texts.get(index) ?? "") : null;
      yield chunk(
        index,
        annotations ? { annotations } : {},
        openAIFinishReason(event.finishReason, kind),
        reading,
      );
    }
    const usage = await settle();
    // The stream's last chunk reports the research: on the usage chunk, or a chunk of its own.
    const report = research ? { research } : {};
    if (plan.includeUsageInStream) {
      yield kind === "chat"
        ? Object.assign(chatChunk(plan, []), { usage }, report)
        : Object.assign(textChunk(plan, []), { usage });
    } else if (research) {
      yield Object.assign(chatChunk(plan, []), report);
    }
  } catch (error) {
    if (error instanceof UpstreamError && error.failure === "aborted") {
      if (!done) await settle();
      return;
    }
    if (!done) {
      done = true;
      await deps.holds.release(hold);
    }
    throw error;
  } finally {
    // The consumer stopped reading (client gone): charge what was generated until then.
    if (!done) await settle();
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
