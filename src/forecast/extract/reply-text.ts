const THINKING_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const THINKING_END = /<\/(?:think|thinking|reasoning)>/gi;
const CLOSED_ANSWER_TAG = /<\s*answer\s*>([\s\S]*?)<\s*\/\s*answer\s*>/gi;
const OPEN_ANSWER_TAG = /<\s*answer\s*>/gi;
const CLOSE_ANSWER_TAG = /<\s*\/\s*answer\s*>/gi;

/**
 * The reply without the model's reasoning blocks, which hold drafts rather than the answer.
 * Some servers drop the opening `<think>`, so a lone closing tag ends the reasoning too. A reply
 * that is nothing but reasoning is kept whole: a draft answer beats none.
 */
export function withoutThinking(reply: string): string {
  let text = reply.replace(THINKING_BLOCK, "");
  const ends = [...text.matchAll(THINKING_END)];
  const lastEnd = ends[ends.length - 1];
  if (lastEnd !== undefined) text = text.slice(lastEnd.index + lastEnd[0].length);
  return text.trim() === "" ? reply : text;
}

/**
 * The content of the last answer tag. An opening tag after the last closed one counts until
 * the end of the text: a `</answer>` stop sequence cuts the closing tag off.
 */
export function lastAnswerTag(text: string): string | null {
  let content: string | null = null;
  let closedEnd = -1;
  for (const match of text.matchAll(CLOSED_ANSWER_TAG)) {
    content = match[1] ?? "";
    closedEnd = match.index + match[0].length;
  }
  const opens = [...text.matchAll(OPEN_ANSWER_TAG)];
  const lastOpen = opens[opens.length - 1];
  if (lastOpen !== undefined && lastOpen.index >= closedEnd) {
    return text.slice(lastOpen.index + lastOpen[0].length);
  }
  return content;
}

/** `text` with answer tags removed but their content kept. */
export function withoutAnswerTagMarks(text: string): string {
  return text.replace(OPEN_ANSWER_TAG, "").replace(CLOSE_ANSWER_TAG, "");
}

/**
 * Markdown emphasis and code marks removed, so "**Probability:** 62%" reads like a plain label.
 * Single asterisks stay: ForecastBench answers are written "*0.62*".
 */
export function plainText(text: string): string {
  return text.replace(/\*\*|__|`/g, "");
}
