import { keepingRecent } from "../last-reading.js";

/**
 * Every match of the global `pattern` in `text` from `start`, as `[...text.matchAll(pattern)]`
 * gives them from the pattern's lastIndex. matchAll copies the pattern on each call, and the
 * copy looks the pattern's whole source up in a cache: for the long patterns of the readers, and
 * the searches made for every figure or line of a reply, that lookup cost more than the search.
 * All matches are found before any is read, so a reader may search with the same pattern while
 * reading them.
 */
export function matchesOf(
  text: string,
  pattern: RegExp,
  start = pattern.lastIndex,
): RegExpExecArray[] {
  const from = pattern.lastIndex;
  pattern.lastIndex = start;
  const found: RegExpExecArray[] = [];
  try {
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      found.push(match);
      // An empty match moves the search on by one character, as matchAll does.
      if (match[0] === "") pattern.lastIndex = nextIndex(text, pattern.lastIndex, pattern.unicode);
    }
  } finally {
    pattern.lastIndex = from;
  }
  return found;
}

/**
 * Whether `text` holds one of `literals`. A search for a literal runs through a long reply a
 * hundred times faster than a pattern's search, which tries a match at every character: a
 * pattern whose every match holds one of them is searched for only where one is written.
 */
export function holdsAny(text: string, literals: readonly string[]): boolean {
  for (const literal of literals) if (text.includes(literal)) return true;
  return false;
}

// Without the u flag, a case-blind pattern matches an ASCII letter with ASCII letters alone.
const ASCII_LETTER = /[A-Za-z]/;

/**
 * Whether `text` holds an ASCII letter, which every match of a pattern for words holds. Each
 * such pattern asks first, so the answer is kept for the reply and the texts derived from it:
 * a reply of figures alone, thousands of them, is then searched for none of the words.
 */
export const holdsLetter = keepingRecent((text: string) => ASCII_LETTER.test(text), 4);

/**
 * Whether `text` holds one of the words `mark` looks for, a case-blind pattern of plain words
 * that every match of some costlier pattern holds. Only few, long words pay: a search for them
 * skips ahead several characters at a time, while a mark of many short words is searched for
 * more slowly than a pattern that starts with \b. `mark` holds a letter in each of its words.
 */
export function holdsWords(text: string, mark: RegExp): boolean {
  return holdsLetter(text) && mark.test(text);
}

/**
 * Every way of writing the ASCII `word` in upper and lower case, as a case-blind pattern
 * without the u flag matches it: the literals holdsAny looks for in place of the word.
 */
export function allCases(word: string): string[] {
  return [...word].reduce<string[]>(
    (spellings, char) =>
      spellings.flatMap((start) => [start + char.toLowerCase(), start + char.toUpperCase()]),
    [""],
  );
}

/** matchesOf, searched only where `literal`, which every match of `pattern` holds, is written. */
export function matchesHolding(text: string, pattern: RegExp, literal: string): RegExpExecArray[] {
  return text.includes(literal) ? matchesOf(text, pattern) : [];
}

function nextIndex(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return index + (pair ? 2 : 1);
}
