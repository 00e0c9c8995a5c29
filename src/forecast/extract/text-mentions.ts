import type { Mention, OptionNames } from "./option-names.js";

/**
 * The option names of one text, found by one scan of the whole text (when first asked for) and
 * then looked up line by line: a scan of each line of a long reply cost more in its setup than
 * in its work.
 */
export class TextMentions {
  private found: Mention[] | undefined;

  constructor(
    private readonly text: string,
    private readonly names: OptionNames,
  ) {}

  /**
   * The names in the text from `start` to `end`, placed in that part. The same as scanning the
   * part alone when no letter or digit stands between the line's start and `start` (no name
   * runs into the part from before it) and `end` is not inside a word: names never cross a
   * line break, and the scan reads each word apart from the text around its line.
   */
  within(start: number, end: number): Mention[] {
    if (this.found === undefined) this.found = this.names.mentions(this.text);
    const found = this.found;
    let low = 0;
    let high = found.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((found[middle] as Mention).start < start) low = middle + 1;
      else high = middle;
    }
    const inside: Mention[] = [];
    for (let index = low; index < found.length; index++) {
      const mention = found[index] as Mention;
      if (mention.end > end) break;
      inside.push({
        letter: mention.letter,
        start: mention.start - start,
        end: mention.end - start,
      });
    }
    return inside;
  }
}
