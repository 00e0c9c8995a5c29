import { isSpaceCode } from "../number-tokens.js";
import { wholeNumber, withDecimalPoints } from "../numbers.js";
import { holdsAny } from "./matches.js";

const SUPERSCRIPTS: Record<string, string> = {
  "⁰": "0",
  "¹": "1",
  "²": "2",
  "³": "3",
  "⁴": "4",
  "⁵": "5",
  "⁶": "6",
  "⁷": "7",
  "⁸": "8",
  "⁹": "9",
  "⁻": "-",
  "⁺": "+",
};

// "3.1 × 10^6", "4x10^{5}", "2.5 · 10⁹": a power of ten needs "^" or a superscript exponent, so
// "2 x 10 units" stays as written.
const TIMES_POWER_OF_TEN =
  /(?<![\w.])(\d+(?:\.\d+)?)[ \t]*[×x*·][ \t]*10(?:\^\{?([-+−]?\d{1,3})\}?|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))/g;

// What every power of ten holds: a search for it skips over the digits that the search for the
// whole pattern tries one by one.
const POWER_OF_TEN_WRITTEN = /[×x*·][ \t]*10[\^⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]/;
// The signs of multiplication, looked for before it: a pattern that starts with a class tries
// every character of the text (see holdsAny in matches.ts).
const TIMES_SIGNS = ["×", "x", "*", "·"];

/** Powers of ten written out rewritten in e-notation ("3.1 × 10^6" → "3.1e6"). */
export function withENotation(text: string): string {
  if (!holdsAny(text, TIMES_SIGNS) || !POWER_OF_TEN_WRITTEN.test(text)) return text;
  return text.replace(
    TIMES_POWER_OF_TEN,
    (_, mantissa: string, caret: string | undefined, raised: string | undefined) => {
      const exponent =
        caret?.replace("−", "-") ??
        [...(raised ?? "")].map((digit) => SUPERSCRIPTS[digit] ?? "").join("");
      return `${mantissa}e${exponent}`;
    },
  );
}

const TABLE_LINE = /^[ \t]*\|.*\|[ \t]*$/;
const SEPARATOR_CELL = /^:?-{2,}:?$/;
const PERCENTILE_HEADER = /percentile|quantile/i;

const PIPE = 124;

/** Where `line` from `start` to `end` starts once its leading spaces are cut. */
function trimmedStart(line: string, start: number, end: number): number {
  let at = start;
  while (at < end && isSpaceCode(line.charCodeAt(at))) at++;
  return at;
}

/** Where `line` from `start` to `end` ends once its trailing spaces are cut. */
function trimmedEnd(line: string, start: number, end: number): number {
  let at = end;
  while (at > start && isSpaceCode(line.charCodeAt(at - 1))) at--;
  return at;
}

/**
 * The trimmed cells of a table line, outer pipes dropped: one pass over its codes (a search
 * from each pipe for the next would look at the line once per cell), and one copy of each cell.
 */
function cells(line: string): string[] {
  const rowStart = trimmedStart(line, 0, line.length);
  const rowEnd = trimmedEnd(line, rowStart, line.length);
  const from = line.charCodeAt(rowStart) === PIPE && rowStart < rowEnd ? rowStart + 1 : rowStart;
  const to = rowEnd > from && line.charCodeAt(rowEnd - 1) === PIPE ? rowEnd - 1 : rowEnd;
  const found: string[] = [];
  let start = from;
  for (let index = from; index < to; index++) {
    if (line.charCodeAt(index) !== PIPE) continue;
    found.push(trimmed(line, start, index));
    start = index + 1;
  }
  found.push(trimmed(line, start, Math.max(start, to)));
  return found;
}

/** `line` from `start` to `end` without the spaces around it, as `trim` cuts them. */
function trimmed(line: string, start: number, end: number): string {
  const from = trimmedStart(line, start, end);
  return line.slice(from, trimmedEnd(line, from, end));
}

/**
 * A markdown table as "label: value" lines. A single row of figures under a header row reads
 * column by column ("| Mean | SD |" over "| 42 | 5 |"); otherwise each row is its first cell
 * as the label and the rest as the value, the header naming percentiles when the rows don't.
 */
function tableAsLines(rows: string[][]): string[] {
  const body = rows.filter((row) => !row.every((cell) => SEPARATOR_CELL.test(cell)));
  const [header, ...data] = body;
  const separated = rows.length !== body.length;
  if (header === undefined) return [];
  const firstData = data[0];
  if (separated && data.length === 1 && firstData !== undefined) {
    const numeric = firstData.every((cell) => wholeNumber(cell) !== null);
    if (numeric) return header.map((label, index) => `${label}: ${firstData[index] ?? ""}`);
  }
  const percentileRows = separated && PERCENTILE_HEADER.test(header[0] ?? "");
  return (separated ? data : body).map((row) => {
    const label = row[0] ?? "";
    const named = percentileRows && !PERCENTILE_HEADER.test(label) ? `percentile ${label}` : label;
    return `${named}: ${row.slice(1).join(" ")}`;
  });
}

/** `text` with markdown tables rewritten as "label: value" lines, so labels find their figures. */
export function withTablesAsLines(text: string): string {
  // Most replies hold no table: spare them a copy of the whole text.
  if (!text.includes("|")) return text;
  const out: string[] = [];
  let table: string[][] = [];
  const flush = () => {
    for (const line of tableAsLines(table)) out.push(line);
    table = [];
  };
  for (const line of text.split("\n")) {
    if (TABLE_LINE.test(line)) {
      table.push(cells(line));
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join("\n");
}

/**
 * Reply text prepared for reading quantities: tables as label lines, powers of ten as
 * e-notation, decimal commas as points.
 */
export function quantityText(text: string): string {
  return withDecimalPoints(withENotation(withTablesAsLines(text)));
}
