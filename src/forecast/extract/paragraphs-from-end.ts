import { isSpaceCode } from "../number-tokens.js";

const NEWLINE = 10;

/** Where a paragraph's text stands, without the spaces around it. */
export interface ParagraphSpan {
  start: number;
  end: number;
}

/**
 * The last paragraph of `text` that ends at or before `before`, as `text.split(/\n\s*\n/)`
 * cuts them and trim() then leaves them, empty ones dropped; or null. A run of spaces holding
 * two line breaks or more parts paragraphs; one with fewer stands inside one. Read from the end
 * back code by code, so the last paragraph of a reply of thousands costs its own length alone.
 */
export function paragraphBefore(text: string, before: number): ParagraphSpan | null {
  let end = before;
  while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
  if (end === 0) return null;
  let start = end - 1;
  for (;;) {
    while (start > 0 && !isSpaceCode(text.charCodeAt(start - 1))) start--;
    let spaces = start;
    let breaks = 0;
    while (spaces > 0 && isSpaceCode(text.charCodeAt(spaces - 1))) {
      if (text.charCodeAt(spaces - 1) === NEWLINE) breaks++;
      spaces--;
    }
    // Spaces that open the text are trimmed off like those that part paragraphs.
    if (start === 0 || breaks >= 2 || spaces === 0) return { start, end };
    start = spaces - 1;
  }
}
