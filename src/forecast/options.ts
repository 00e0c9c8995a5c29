import type { OptionMap } from "./types.js";

const LETTERED_LINE = /^\s*(?:[-*•]\s*)?(?:\(([A-Z])\)|([A-Z])[).:])\s+(\S.*?)\s*$/;
// An inline marker needs ")" so that prose ("Plan A. Then…") is not read as options.
const INLINE_MARKER = /(?:^|(?<=[\s,;:]))\(?([A-Z])\)\s+/g;
const HEADING =
  /\b(?:the\s+)?(?:options|choices|possible\s+(?:answers|outcomes)|answer\s+options)(?:\s+are)?\s*:[ \t]*/i;
const BULLET_LINE = /^\s*(?:[-*•]|\d{1,2}[.)])\s+(\S.*?)\s*$/;
const QUOTED_ITEM = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
const MAX_OPTION_LENGTH = 500;

function letter(index: number): string {
  return String.fromCharCode(65 + index);
}

function cleanOption(text: string): string {
  return text
    .trim()
    .replace(/(?:[,;]|\s+(?:or|and))$/i, "")
    .trim();
}

/** Options lettered A, B, C… in order, or null when fewer than two. */
function asOptions(texts: string[]): OptionMap | null {
  const cleaned = texts
    .map(cleanOption)
    .filter((text) => text !== "" && text.length <= MAX_OPTION_LENGTH);
  if (cleaned.length < 2 || cleaned.length > 26) return null;
  return Object.fromEntries(cleaned.map((text, index) => [letter(index), text]));
}

/** "A) Yes" / "(B) No" / "C. Maybe" lines, taken while the letters run A, B, C… in order. */
function letteredLines(text: string): OptionMap | null {
  const texts: string[] = [];
  for (const line of text.split("\n")) {
    const match = LETTERED_LINE.exec(line);
    const found = match?.[1] ?? match?.[2];
    if (match === null || found === undefined) continue;
    if (found === letter(texts.length)) texts.push(match[3] ?? "");
    else if (found === "A" && texts.length >= 2) break;
    else if (found === "A") texts.splice(0, texts.length, match[3] ?? "");
  }
  return asOptions(texts);
}

/** "Options: A) x, B) y, C) z" or "(A) x (B) y" within one line. */
function inlineLettered(text: string): OptionMap | null {
  for (const line of text.split("\n")) {
    const markers = [...line.matchAll(INLINE_MARKER)];
    const texts: string[] = [];
    for (const [index, marker] of markers.entries()) {
      if (marker[1] !== letter(texts.length)) break;
      const next = markers[index + 1];
      const written = line.slice(marker.index + marker[0].length, next?.index);
      // The last option runs to the end of the sentence.
      texts.push(next === undefined ? written.replace(/[.?!]\s*$/, "") : written);
    }
    const options = asOptions(texts);
    if (options !== null) return options;
  }
  return null;
}

/** Unlettered options after a heading: a quoted list, bullet lines or a comma-separated line. */
function listAfterHeading(text: string): OptionMap | null {
  const heading = HEADING.exec(text);
  if (heading === null) return null;
  const after = text.slice(heading.index + heading[0].length);
  const firstLine = after.split("\n")[0] ?? "";
  if (firstLine.trimStart().startsWith("[")) {
    const list = firstLine.slice(0, firstLine.indexOf("]") + 1 || undefined);
    const items = [...list.matchAll(QUOTED_ITEM)].map((match) => match[1] ?? match[2] ?? "");
    return asOptions(items.map((item) => item.replace(/\\(.)/g, "$1")));
  }
  if (firstLine.trim() !== "") return asOptions(firstLine.split(/\s*[,;]\s*|\s+or\s+/));
  const bullets: string[] = [];
  for (const line of after.split("\n").slice(1)) {
    const bullet = BULLET_LINE.exec(line);
    if (bullet?.[1] !== undefined) bullets.push(bullet[1]);
    else if (line.trim() !== "" || bullets.length > 0) break;
  }
  return asOptions(bullets);
}

/**
 * Option letters → option texts from a question or prompt, or null when it lists fewer than
 * two. Lettered options keep their letters; unlettered lists are lettered A, B, C… in order.
 */
export function parseOptions(text: string): OptionMap | null {
  return letteredLines(text) ?? inlineLettered(text) ?? listAfterHeading(text);
}
