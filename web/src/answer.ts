export interface ParsedAnswer {
  /** The reply without its answer tags. */
  prose: string;
  /** The text inside the last `<answer>` tag, or null when there is none. */
  answer: string | null;
  /** The answer read as JSON when it is (a probability, a distribution, option weights). */
  value: unknown;
}

/** Splits a reply into prose and the structured answer Sibyl appends at its end. */
export function parseAnswer(content: string): ParsedAnswer {
  const matches = [...content.matchAll(/<answer>([\s\S]*?)<\/answer>/g)];
  const last = matches.at(-1);
  if (!last || last[1] === undefined) return { prose: content.trim(), answer: null, value: null };
  const answer = last[1].trim();
  const prose = content
    .replace(/<options>[\s\S]*?<\/options>/g, "")
    .replace(/<answer>[\s\S]*?<\/answer>/g, "")
    .trim();
  let value: unknown = null;
  try {
    value = JSON.parse(answer);
  } catch {
    value = null;
  }
  return { prose, answer, value };
}

/** A one-line reading of a parsed answer: "62.0%", "mean 42.5 ± 5.2", "A 55% · B 45%". */
export function describeAnswer(parsed: ParsedAnswer): string | null {
  const { value, answer } = parsed;
  if (answer === null) return null;
  if (typeof value === "number") {
    return value >= 0 && value <= 1 ? `${(value * 100).toFixed(1)}% probability` : String(value);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    const mean = (value as Record<string, unknown>).mean;
    const sd = (value as Record<string, unknown>).standard_deviation;
    if (typeof mean === "number" && typeof sd === "number") return `mean ${mean} ± ${sd}`;
    if (entries.every(([, p]) => typeof p === "number")) {
      return entries
        .map(([option, p]) => `${option} ${((p as number) * 100).toFixed(0)}%`)
        .join(" · ");
    }
  }
  return answer;
}
