import { spacesEnd } from "../number-tokens.js";

/**
 * Whether the first character after the spaces at `index` is one of `initials` (lower-case
 * letters), in either case. A check of one character before a sticky pattern for the words
 * after a figure: of the thousands of figures of a long reply, almost none is followed by a
 * word the pattern looks for, and the pattern costs far more to try than this.
 */
export function nextWordMayStart(text: string, index: number, initials: string): boolean {
  const code = text.charCodeAt(spacesEnd(text, index));
  // ASCII letters only: upper case folds to lower case by one bit.
  const lower = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? code | 0x20 : -1;
  for (let letter = 0; letter < initials.length; letter++) {
    if (initials.charCodeAt(letter) === lower) return true;
  }
  return false;
}
