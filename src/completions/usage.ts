import type { ProviderUsage } from "../inference/provider.js";
import { countTextListTokens } from "../inference/tokens.js";
import type { CompletionPlan } from "./plan.js";

/** Token counts of every model call a request made (the reply, and a repair if one ran). */
export class UsageTally {
  promptTokens = 0;
  completionTokens = 0;
  reasoningTokens = 0;

  add(usage: ProviderUsage): void {
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.reasoningTokens += usage.reasoningTokens;
  }
}

/** What to bill when a model server reports no usage: our own token count. */
export function countedUsage(
  plan: CompletionPlan,
  choices: { text: string; thinking: string | null }[],
) {
  return {
    promptTokens: plan.promptTokensEstimate,
    // One counting budget for every reply, however many choices there are.
    completionTokens: countTextListTokens(
      choices.flatMap((choice) => [choice.text, choice.thinking ?? ""]),
    ),
    reasoningTokens: 0,
  };
}
