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
 * back a line break at a time, so the last paragraph of a reply of thousands costs its own
 * lines alone.
 */
export function paragraphBefore(text: string, before: number): ParagraphSpan | null {
  let end = before;
  while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
  if (end === 0) return null;
  for (let lineBreak = text.lastIndexOf("\n", end - 1); lineBreak !== -1; ) {
    let runStart = lineBreak;
    let breaks = 1;
    while (runStart > 0 && isSpaceCode(text.charCodeAt(runStart - 1))) {
      runStart--;
      if (text.charCodeAt(runStart) === NEWLINE) breaks++;
    }
    let runEnd = lineBreak + 1;
    while (isSpaceCode(text.charCodeAt(runEnd))) runEnd++;
    // Spaces that open the text are trimmed off like those that part paragraphs.
    if (breaks >= 2 || runStart === 0) return { start: runEnd, end };
    lineBreak = text.lastIndexOf("\n", runStart - 1);
  }
  let start = 0;
  while (isSpaceCode(text.charCodeAt(start))) start++;
  return { start, end };
}
