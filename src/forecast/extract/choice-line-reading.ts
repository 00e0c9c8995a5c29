import type { OptionMap } from "../types.js";
import { UNPLACED } from "./choice-distributions.js";
import { labelledEntries } from "./choice-labelled.js";
import { proseChoices } from "./choice-prose.js";
import type { ChoiceText } from "./choice-text.js";
import { LineNames } from "./line-names.js";
import { AMBIGUOUS } from "./option-names.js";
import type { LineEntry } from "./validate.js";

// Bullets, quote marks, headings, table pipes and list numbers before a line's label.
const LINE_LEAD = /^[\s>#*•+|-]*(?:\d{1,2}[.)]\s+)?/;

/** The option probabilities one line states: "A: 50%, B: 30%", "Option_B: 30%", "Red: 50%". */
export interface LineReading {
  entries: LineEntry[];
  /** Names with figures in a sentence rather than labelled lines. */
  prose: boolean;
}

const NO_ENTRIES: LineReading = { entries: [], prose: false };
const DIGIT = /\d/;

/**
 * Whether a line may have a lead (LINE_LEAD): it starts with a space, a mark of one, or a list
 * number. Most lines of a long reply start with a letter, and are not searched.
 */
function mayHaveLead(line: string): boolean {
  const code = line.charCodeAt(0);
  const letter = (code | 0x20) >= 97 && (code | 0x20) <= 122;
  return !letter && code !== 40;
}

/** The reading of the line `rawLine`, which starts at `lineStart` in the reply. */
function lineEntries(rawLine: string, lineStart: number, reply: ChoiceText): LineReading {
  // A line with no digit states no figure.
  if (!DIGIT.test(rawLine)) return NO_ENTRIES;
  const line = mayHaveLead(rawLine) ? rawLine.replace(LINE_LEAD, "") : rawLine;
  if (line !== rawLine && !DIGIT.test(line)) return NO_ENTRIES;
  // Figures someone else or the past gave are not the reply's own ("The market gives
  // Democrats 99%").
  const names = new LineNames(reply, line, lineStart + rawLine.length - line.length);
  const labelled = labelledEntries(line, reply);
  if (labelled !== null) {
    return { entries: labelled.filter((entry) => !names.isAttributed(entry.raw)), prose: false };
  }
  return { entries: proseChoices(line, reply, names), prose: true };
}

/** Whether an entry is of one of the options (or of none, or of several). */
function isStated(entry: LineEntry, options: OptionMap | null): boolean {
  return (
    options === null ||
    entry.letter === AMBIGUOUS ||
    entry.letter === UNPLACED ||
    entry.letter in options
  );
}

/**
 * Each line's reading, made once per text: the lines after a final-answer marker are read
 * again as part of the whole, and a long reply repeats lines.
 */
export class LineReader {
  private readonly readings = new Map<string, LineReading>();

  constructor(readonly reply: ChoiceText) {}

  /**
   * The reading of `line`, which starts at `start` in the reply, with only the entries of the
   * reply's options (or of none, or of several).
   */
  read(line: string, start: number): LineReading {
    let reading = this.readings.get(line);
    if (reading === undefined) {
      reading = lineEntries(line, start, this.reply);
      const options = this.reply.options;
      if (!reading.entries.every((entry) => isStated(entry, options))) {
        const entries = reading.entries.filter((entry) => isStated(entry, options));
        reading = { entries, prose: reading.prose };
      }
      this.readings.set(line, reading);
    }
    return reading;
  }
}
