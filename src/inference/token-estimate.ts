import { alignToPiece, countSpanTokens } from "./token-segments.js";

/**
 * Characters counted exactly per call. Counting text never seen before costs ~0.2 µs a character
 * on random CJK or mixed scripts (bpe/; gpt-tokenizer took up to ~3 µs), so one call, and so one
 * chat's prompt, holds the event loop for a few ms at most whatever it holds, even at the 16 MB
 * body limit. Beyond it, estimates land within a few percent.
 */
export const EXACT_CHARACTERS = 8_192;

/** Longer inputs are estimated from this many windows spread evenly across them. */
const SAMPLE_WINDOWS = 32;
const WINDOW_CHARACTERS = EXACT_CHARACTERS / SAMPLE_WINDOWS;

interface Sample {
  tokens: number;
  characters: number;
}

/** The exact token count of texts short enough, else an estimate costing the same. */
export function estimateTokens(texts: readonly string[]): number {
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  if (characters <= EXACT_CHARACTERS) {
    return texts.reduce((sum, text) => sum + countSpanTokens(text, 0, text.length), 0);
  }
  return Math.ceil(characters * upperRatio(samples(texts, characters)));
}

/**
 * One window in the middle of each of SAMPLE_WINDOWS equal stretches of the texts laid end to
 * end. Spreading them, rather than counting a prefix, keeps a short question in front of a
 * large pasted blob from setting the rate for the whole. Windows start and end where a
 * pre-tokenizer piece does, and run on into the next text when their own ends.
 */
function samples(texts: readonly string[], characters: number): Sample[] {
  const stretch = characters / SAMPLE_WINDOWS;
  const found: Sample[] = [];
  let textIndex = 0;
  let textOffset = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    const at = Math.floor(window * stretch + (stretch - WINDOW_CHARACTERS) / 2);
    while (textOffset + (texts[textIndex] as string).length <= at) {
      textOffset += (texts[textIndex] as string).length;
      textIndex++;
    }
    const first = texts[textIndex] as string;
    let from = alignToPiece(first, at - textOffset, first.length);
    const sample: Sample = { tokens: 0, characters: 0 };
    for (let index = textIndex; sample.characters < WINDOW_CHARACTERS && index < texts.length; ) {
      const text = texts[index] as string;
      const wanted = from + WINDOW_CHARACTERS - sample.characters;
      const to = wanted >= text.length ? text.length : alignToPiece(text, wanted, text.length);
      sample.tokens += countSpanTokens(text, from, to);
      sample.characters += to - from;
      index++;
      from = 0;
    }
    if (sample.characters > 0) found.push(sample);
  }
  return found;
}

/**
 * Tokens per character over all windows, raised by one standard error. The estimate holds
 * credits and guards the context length, and the model server's reported usage is what is
 * billed, so it leans high where the text is uneven and stays within a percent or so where it
 * is uniform. The error comes from differences between neighbouring windows, the usual measure
 * for evenly spaced samples: a long text that changes once (prose, then a table) is sampled in
 * proportion and is not penalised as if every window were a coin toss.
 */
function upperRatio(found: Sample[]): number {
  const tokens = found.reduce((sum, sample) => sum + sample.tokens, 0);
  const characters = found.reduce((sum, sample) => sum + sample.characters, 0);
  const ratio = tokens / characters;
  if (found.length < 2) return ratio;
  const rates = found.map((sample) => sample.tokens / sample.characters);
  let squares = 0;
  for (let index = 1; index < rates.length; index++) {
    squares += ((rates[index] as number) - (rates[index - 1] as number)) ** 2;
  }
  const variance = squares / (2 * (rates.length - 1)) / rates.length;
  return ratio + Math.sqrt(variance);
}
