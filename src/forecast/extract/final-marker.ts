import { matchesOf } from "./matches.js";

/**
 * Phrases that mark the answer itself ("Final answer:", "Bottom line:", "I land at", "So my
 * answer is"): the figure after the last of them beats any label written before it.
 */
export const FINAL_MARKER =
  /\b(?:final\s+(?:answer|forecast|probability|estimate|prediction|call|number|assessment|odds)\b|final\s*(?=[:=])|bottom line\b|in conclusion\b|verdict\b|I(?:'ll| will)? land (?:at|on)\b|landing (?:at|on)\b|I(?:'ll| will)? settle (?:on|at)\b|settling (?:on|at)\b|I(?:'ll| will)? go with\b|I arrive at\b|I end up (?:at|with)\b|my\s+(?:answer|forecast)\s+is\b|posterior(?:\s+(?:estimate|forecast|probability))?\s*(?=[:=]))/gi;

/** Where the last final marker of `text` starts and ends, or null. */
export function lastFinalMarker(text: string): { index: number; end: number } | null {
  const last = matchesOf(text, FINAL_MARKER).at(-1);
  return last === undefined ? null : { index: last.index, end: last.index + last[0].length };
}
