/** What a question's prompt is built from; empty and "N/A" fields are left out. */
export interface PromptParts {
  intro?: string | null;
  question: string;
  resolutionCriteria?: string | null;
  background?: string | null;
  /** e.g. "The market value." and "0.63", as of the freeze date. */
  freeze?: { explanation: string; value: string; at: string } | null;
  resolutionDate?: string | null;
  options?: string[] | null;
}

const present = (text: string | null | undefined): text is string =>
  typeof text === "string" && text.trim() !== "" && text.trim() !== "N/A";

/** The user message: ForecastBench's fields in its order, options lettered A, B, C… */
export function buildPrompt(parts: PromptParts): string {
  const sections: string[] = [];
  if (present(parts.intro)) sections.push(parts.intro.trim());
  sections.push(`Question: ${parts.question.trim()}`);
  if (parts.options && parts.options.length > 0) {
    const lines = parts.options.map(
      (option, index) => `${String.fromCharCode(65 + index)}) ${option}`,
    );
    sections.push(`Options:\n${lines.join("\n")}`);
  }
  if (present(parts.resolutionCriteria)) {
    sections.push(`Resolution criteria: ${parts.resolutionCriteria.trim()}`);
  }
  if (present(parts.background)) sections.push(`Background: ${parts.background.trim()}`);
  if (parts.freeze && present(parts.freeze.value)) {
    const explanation = present(parts.freeze.explanation)
      ? parts.freeze.explanation.trim().replace(/\.$/, "")
      : "Latest value";
    sections.push(`${explanation} on ${parts.freeze.at.slice(0, 10)}: ${parts.freeze.value}`);
  }
  if (present(parts.resolutionDate)) sections.push(`Resolution date: ${parts.resolutionDate}`);
  return sections.join("\n\n");
}
