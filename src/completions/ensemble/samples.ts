import { UpstreamError } from "../../inference/errors.js";
import type { InferenceResult, SamplingParams } from "../../inference/provider.js";
import { inferenceRequest, type PreparedCompletion } from "../plan.js";
import { UsageTally } from "../usage.js";
import type { EnsembleSpec } from "./request.js";

/** A sample's finished reply and what its calls used (the sample's, and a repair if one ran). */
export interface AnsweredSample<C extends { index: number }> {
  choices: C[];
  tally: UsageTally;
}

/**
 * Asks for every sample of an ensemble with its own upstream call, all at once: a model server
 * that ignores `n` (Ollama, llama.cpp and many hosted APIs do) still gives each sample a reply.
 * Each call is read as a request of its own (`answer`); the returned choices carry the sample's
 * position and the tally sums the calls that answered. Calls that failed cost nothing and are
 * left out, for the ensemble to count.
 */
export async function sampleEnsemble<C extends { index: number }>(
  prepared: PreparedCompletion,
  spec: EnsembleSpec,
  signal: AbortSignal | undefined,
  answer: (result: InferenceResult) => Promise<AnsweredSample<C>>,
): Promise<AnsweredSample<C>> {
  const samples = await answeredCalls(spec.samples, signal, async (index) => {
    // Object.assign rather than spreads: see prepareCompletion (plan.ts).
    const result = await prepared.provider.complete(
      Object.assign(inferenceRequest(prepared, signal), {
        params: sampleParams(prepared.params, index),
      }),
    );
    // A server that answers with more than the one choice asked for: the first is the sample.
    const answered = await answer(
      Object.assign({}, result, { choices: result.choices.slice(0, 1) }),
    );
    return Object.assign({}, answered, {
      choices: answered.choices.map((choice) => Object.assign({}, choice, { index })),
    });
  });
  const tally = new UsageTally();
  for (const sample of samples) tally.add(sample.tally);
  return { choices: samples.flatMap((sample) => sample.choices), tally };
}

/**
 * One sample's sampling parameters: one reply, and with a seed a seed of its own (the caller's
 * plus the sample's position), as the same seed would repeat the same reply.
 */
function sampleParams(params: SamplingParams, index: number): SamplingParams {
  return Object.assign({}, params, {
    n: 1,
    seed: params.seed === null || params.seed === undefined ? null : params.seed + index,
  });
}

/**
 * Runs `call` once per sample, concurrently, and returns what the calls that answered returned,
 * in sample order. Upstream failures of some calls are tolerated; when every call failed, or the
 * caller cancelled while calls were running, the request fails as a single call would: with the
 * cancellation, else the first sample's error. Any other error is a fault of ours, never a
 * failed call, and fails the request.
 */
async function answeredCalls<T>(
  count: number,
  signal: AbortSignal | undefined,
  call: (index: number) => Promise<T>,
): Promise<T[]> {
  const settled = await Promise.allSettled(
    Array.from({ length: count }, (_, index) => call(index)),
  );
  const answered: T[] = [];
  const failures: unknown[] = [];
  for (const outcome of settled) {
    if (outcome.status === "fulfilled") answered.push(outcome.value);
    else failures.push(outcome.reason);
  }
  const unexpected = failures.find((error) => !(error instanceof UpstreamError));
  if (unexpected !== undefined) throw unexpected;
  const cancelled = failures.find(
    (error) => error instanceof UpstreamError && error.failure === "aborted",
  );
  if (cancelled !== undefined && signal?.aborted) throw cancelled;
  if (answered.length === 0 && failures.length > 0) throw failures[0];
  return answered;
}
