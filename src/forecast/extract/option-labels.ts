import type { OptionMap } from "../types.js";

const LETTERED = /^(?:(?:option|choice)\s*)?\(?([a-z])\)?(?:[.):\]]\s*.*|\s+\(.*)?$/i;

/** Lowercase words only, so "Red (Labour)" and "red labour" compare equal. */
function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The option letter a label names: "A", "Option_A", "option a", "A) Red", or, when the options
 * are known, the option's text ("Red", "Red (Labour)").
 */
export function letterForLabel(label: string, options: OptionMap | null): string | null {
  const cleaned = label
    .replace(/[*`"'“”‘’]/g, "")
    .replace(/_/g, " ")
    .replace(/[\s:=|–—-]+$/, "")
    .trim();
  const written = LETTERED.exec(cleaned)?.[1]?.toUpperCase();
  if (written !== undefined && (options === null || written in options)) return written;
  if (options === null) return null;
  const wanted = normalizeText(cleaned);
  if (wanted === "") return null;
  let best: { letter: string; length: number } | null = null;
  for (const [letter, text] of Object.entries(options)) {
    const optionText = normalizeText(text);
    if (optionText === "") continue;
    if (optionText === wanted) return letter;
    const overlaps =
      wanted.startsWith(`${optionText} `) || (wanted.length >= 3 && optionText.startsWith(wanted));
    if (overlaps && (best === null || optionText.length > best.length)) {
      best = { letter, length: optionText.length };
    }
  }
  return best?.letter ?? null;
}
