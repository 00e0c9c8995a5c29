import type { OptionMap } from "../types.js";
import { wordCharacterAt } from "./name-scan.js";
import { letterForLabel } from "./option-labels.js";
import { type Mention, type OptionNames, optionNames } from "./option-names.js";
import { TextMentions } from "./text-mentions.js";

// How many parts of a reply are scanned for names alone before the whole reply is.
const PARTS_SCANNED_ALONE = 32;

/**
 * What reading the lines of one reply needs, made once per reply: the options' names, where
 * they stand in the reply, and the option each label names (a long reply repeats its labels).
 */
export class ChoiceText {
  readonly names: OptionNames | null;
  private readonly mentions: TextMentions | null;
  private readonly letters = new Map<string, string | null>();
  private partsScanned = 0;

  constructor(
    readonly text: string,
    readonly options: OptionMap | null,
  ) {
    this.names = options === null ? null : optionNames(options);
    this.mentions = this.names === null ? null : new TextMentions(text, this.names);
  }

  /**
   * The option names in `part`, which stands in the text at `start`. The first parts asked for
   * are scanned alone: a short reply asks for few, and a scan of all of it would cost more. Past
   * those, they are looked up in the names of the whole text, found once, when `part` holds
   * every letter and digit of its line (and scanned alone otherwise).
   */
  mentionsIn(part: string, start: number): Mention[] {
    if (this.names === null || this.mentions === null) return [];
    const end = start + part.length;
    const lookUp =
      this.partsScanned >= PARTS_SCANNED_ALONE &&
      wordless(this.text, start, -1) &&
      wordless(this.text, end, 1);
    if (lookUp) return this.mentions.within(start, end);
    this.partsScanned++;
    return this.names.mentions(part);
  }

  /** The option a label names, as letterForLabel. */
  letterFor(label: string): string | null {
    let letter = this.letters.get(label);
    if (letter === undefined) {
      letter = letterForLabel(label, this.options);
      this.letters.set(label, letter);
    }
    return letter;
  }
}

/**
 * Whether no letter or digit stands between `from` and the line's start (`step` -1) or end
 * (`step` 1). Any character outside ASCII counts as one, to keep the test short.
 */
function wordless(text: string, from: number, step: 1 | -1): boolean {
  for (let index = step === 1 ? from : from - 1; index >= 0 && index < text.length; index += step) {
    const code = text.charCodeAt(index);
    if (code === 10) return true;
    if (code >= 128 || wordCharacterAt(text, index) > 0) return false;
  }
  return true;
}
