/**
 * The search query of a request: its question, without the instructions about how to answer
 * that bots put around it ("Answer with a probability between 0 and 1", "Respond with <answer>
 * tags", "Format: …"), which only add noise to a search.
 */

/** Search APIs take short queries; full-text search ranks worse with many terms. */
export const MAX_QUERY_CHARS = 300;

/** Only the start of a long message is read: the question comes first in practice. */
const READ_CHARS = 8_000;

/** Sentences or lines that tell the model how to answer rather than what is asked. */
const INSTRUCTION =
  /^(?:please\s+)?(?:answer|respond|reply|return|output|give|provide|write|format|express|state|think|explain|use|include|end|put|wrap|make sure|your (?:answer|response|output|final)|the (?:answer|output|response) (?:should|must)|you (?:must|should)|do not|don't|only)\b|<\/?[a-z_]+>|\bformat\s*:|\bprobability between\b|\b(?:json|xml) (?:object|format)\b/i;

/** A label in front of the question itself. */
const LABEL = /^(?:question|q)\s*:\s*/i;

export function researchQuery(message: string): string {
  const text = message.slice(0, READ_CHARS);
  const kept: string[] = [];
  for (const piece of text.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = piece.trim().replace(LABEL, "");
    if (sentence === "" || INSTRUCTION.test(sentence)) continue;
    kept.push(sentence);
  }
  const query = squeeze(kept.length > 0 ? kept.join(" ") : text);
  return query.length <= MAX_QUERY_CHARS ? query : cutAtWord(query, MAX_QUERY_CHARS);
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function cutAtWord(text: string, max: number): string {
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return space > max / 2 ? cut.slice(0, space) : cut;
}
