/**
 * The words of a search query, never its syntax: the search engines' query languages (FTS5's
 * quotes, AND/OR/NOT/NEAR, `*`, `-`, `:`, parentheses; tsquery's `&|!<->`) must not see user
 * text, so a query is reduced to plain words that the statements quote or pass as parameters.
 */

/** Enough words to rank well; a long question adds little past these and costs time. */
export const MAX_QUERY_TERMS = 24;

/** Longest term kept; longer runs of letters are noise (base64, hashes) and bloat the query. */
const MAX_TERM_LENGTH = 64;

/** Words that match nearly every article: they slow the search down and blur its ranking. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before " +
    "being below between both but by can could did do does doing down during each few for from " +
    "further had has have having he her here hers herself him himself his how i if in into is it " +
    "its itself just me more most my myself no nor not now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too under until up very was we were " +
    "what when where which while who whom why will with would you your yours yourself " +
    "yourselves whether may might must shall per via yes"
  ).split(" "),
);

/** Letters (with their combining marks) and digits; everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Distinct lower-case words of `query` in order of first appearance, without stop-words and
 * single letters, at most MAX_QUERY_TERMS of them.
 */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of query.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_TERM_LENGTH || seen.has(word) || STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !/\p{N}/u.test(word)) continue;
    seen.add(word);
    terms.push(word);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}
