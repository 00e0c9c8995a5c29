/**
 * The model the batch tests bill against: "priced", served by the fake upstream at `baseUrl`,
 * at $1 per million prompt tokens and $2 per million completion tokens.
 */
export function pricedModel(baseUrl: string) {
  return {
    id: "priced",
    provider: "openai",
    base_url: baseUrl,
    context_length: 8192,
    max_completion_tokens: 512,
    pricing: { prompt: "0.000001", completion: "0.000002" },
  };
}
