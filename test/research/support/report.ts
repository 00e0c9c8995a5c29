import type { ResearchReport } from "../../../src/completions/types.js";

/** The `research` extension of a reply (chat completion, response, batch body or last chunk). */
export function reportOf(reply: unknown): ResearchReport {
  const report = (reply as { research?: ResearchReport } | null)?.research;
  if (!report) throw new Error(`the reply has no research report: ${JSON.stringify(reply)}`);
  return report;
}

/** The addresses of the sources the model was given, in the message's order. */
export function givenUrls(reply: unknown): string[] {
  return reportOf(reply).sources.map((source) => source.url);
}
