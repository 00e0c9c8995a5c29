/**
 * GDELT's DOC API reads its `query` as a boolean expression in which bare words are ANDed, words
 * shorter than three characters are refused, and operators (`domain:`, `-`, quotes) carry meaning.
 * A forecasting question rarely has all of its words in one article, so the question is reduced to
 * its distinctive words, ORed together; `sort=hybridrel` then ranks articles by relevance.
 */

const MIN_WORD_CHARS = 3;
const MAX_WORDS = 8;

const STOP_WORDS = new Set(
  (
    "about above after again against all also among and any are around because been before being " +
    "below between both but can could did does doing down during each else ever every few for " +
    "from further had has have having her here hers him his how into its itself just least less " +
    "like made make many may might more most much must near not now off once only other ought our " +
    "ours out over own per please probability question same shall she should since some such than " +
    "that the their theirs them then there these they this those through under until upon very " +
    "was were what when where whether which while who whom whose why will with within without " +
    "would yes yet you your answer forecast likely chance percent"
  ).split(" "),
);

/** The GDELT query for a question; null when no word in it is searchable. */
export function gdeltQuery(question: string): string | null {
  const words: string[] = [];
  for (const raw of question.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < MIN_WORD_CHARS || STOP_WORDS.has(raw) || words.includes(raw)) continue;
    words.push(raw);
    if (words.length === MAX_WORDS) break;
  }
  if (words.length === 0) return null;
  return words.length === 1 ? (words[0] ?? null) : `(${words.join(" OR ")})`;
}
