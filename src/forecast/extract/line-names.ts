import type { NumberToken } from "../numbers.js";
import { blankMentions, isAttributed } from "./attributed-figures.js";
import type { ChoiceText } from "./choice-text.js";
import type { Mention } from "./option-names.js";

const LETTER_HERE = /\p{L}/uy;

/**
 * Whether `text` holds two letters outside the names found in it (`skip`, left to right): no
 * attribution ("market", "polls", "of") holds fewer. One look at each ASCII character, a
 * pattern only for the others.
 */
function holdsTwoLetters(text: string, skip: readonly Mention[] = []): boolean {
  let letters = 0;
  let next = 0;
  for (let index = 0; index < text.length; index++) {
    const skipped = skip[next];
    if (skipped !== undefined && index === skipped.start) {
      index = skipped.end - 1;
      next++;
      continue;
    }
    const code = text.charCodeAt(index);
    let letter = (code | 0x20) >= 97 && (code | 0x20) <= 122;
    if (code >= 128) {
      LETTER_HERE.lastIndex = index;
      letter = LETTER_HERE.test(text);
      // A letter written as a surrogate pair is stepped over whole.
      if (letter) index = LETTER_HERE.lastIndex - 1;
    }
    if (letter && ++letters === 2) return true;
  }
  return false;
}

/**
 * The option names of one line, and whose its figures are, each looked up when first needed:
 * most lines of a long reply need neither.
 */
export class LineNames {
  private found: Mention[] | undefined;
  // The line with its names blanked, or null when too few letters are left to name a source.
  private blanked: string | null | undefined;

  constructor(
    private readonly reply: ChoiceText,
    private readonly line: string,
    private readonly start: number,
  ) {}

  /** Every option name in the line, left to right. */
  mentions(): Mention[] {
    if (this.found === undefined) this.found = this.reply.mentionsIn(this.line, this.start);
    return this.found;
  }

  /**
   * Whether a figure of the line is someone else's or the past's: "The market gives Democrats
   * 99%", "Democrats won 52% of the vote last time". A line of a label and figures alone ("A:
   * 45%", "Labour: 45%" with the name blanked) has too few letters to name a source, and is
   * not searched for one.
   */
  isAttributed(figure: NumberToken): boolean {
    if (this.blanked === undefined) this.blanked = this.namesBlanked();
    return this.blanked !== null && isAttributed(this.blanked, figure);
  }

  /** The line with its names blanked, or null when fewer than two letters are left. */
  private namesBlanked(): string | null {
    if (!holdsTwoLetters(this.line)) return null;
    const mentions = this.reply.names === null ? [] : this.mentions();
    return holdsTwoLetters(this.line, mentions) ? blankMentions(this.line, mentions) : null;
  }
}
