import { lineStartBefore } from "./choice-line-blocks.js";
import { lastMarker } from "./choice-lines.js";
import { READING_WINDOW_CHARACTERS, type ReadingWindow, readingWindow } from "./reading-window.js";

// Option lists are read line by line, each line's figures tied to the options it names, at about
// five times the cost per character of the other readings; a final distribution is short.
export const CHOICE_WINDOW_CHARACTERS = 4_000;

/**
 * The part of `text` option lists are read from, always from the start of a whole line: the rest
 * of a line cut in two may read as another statement than the whole line ("… as Labour's.
 * Conservative: 20% …"). That is the last line announcing the final answer, when the text from
 * it on is no longer than the window of the other readings (a final list with a line of
 * reasoning per option outgrows the window for lists); else the last CHOICE_WINDOW_CHARACTERS,
 * from their first line start, or nothing when they hold none.
 */
export function choiceWindow(text: string): ReadingWindow {
  const window = readingWindow(text, CHOICE_WINDOW_CHARACTERS);
  if (!window.cut) return window;
  const reach = Math.max(0, text.length - READING_WINDOW_CHARACTERS);
  const marker = lastMarker(text.slice(reach));
  const markerLine = marker === -1 ? -1 : lineStartBefore(text, reach + marker);
  if (markerLine !== -1 && markerLine >= reach && markerLine < window.start) {
    return { text: text.slice(markerLine), start: markerLine, cut: markerLine > 0 };
  }
  if (text.charCodeAt(window.start - 1) === 10) return window;
  const lineBreak = window.text.indexOf("\n");
  const start = lineBreak === -1 ? text.length : window.start + lineBreak + 1;
  return { text: text.slice(start), start, cut: true };
}
