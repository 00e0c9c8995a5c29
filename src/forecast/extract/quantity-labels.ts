// Labels of the figures that describe a quantity forecast. Each is a global pattern that ends
// at its separator, for `labelledNumbers`.

/**
 * A label's pattern and, where a search for it is slow, patterns of which every match of it
 * holds one: a letter outside ASCII among the words of a case-blind pattern ("μ") makes the
 * search try every position of a text, while the words alone are found by skipping ahead.
 */
export interface QuantityLabel {
  pattern: RegExp;
  written: RegExp[];
}

const TAIL = String.raw`(?!\w)(?:\s+(?:estimate|value|forecast|prediction|guess|spread))?(?:\s*\([^)\n]{0,30}\))?\s*(?:[:=≈~]|\bis\b|\bof\b|\bat\b|[-–—])?`;

function label(words: string, written: RegExp[] = []): QuantityLabel {
  return { pattern: new RegExp(String.raw`(?<![\w])(?:${words})${TAIL}`, "gi"), written };
}

export const MEAN_LABEL = label(
  String.raw`mean|average|expected[\s_]+value|expectation|point[\s_]+estimate|best[\s_]+estimate|central[\s_]+estimate|μ|mu|mittelwert|erwartungswert|durchschnitt|moyenne|espérance|media|promedio|valor[\s_]+esperado|média`,
  // The words' ASCII parts, and the letters "μ" matches without regard to case.
  [
    /mean|average|expect|estimate|mu|mittelwert|erwartungswert|durchschnitt|moyenne|esp|media|promedio|valor|dia/i,
    /[μµΜ]/,
  ],
);

export const MEDIAN_LABEL = label("median");

export const STANDARD_DEVIATION_LABEL = label(
  String.raw`standard[\s_-]*deviation|std\.?[\s_-]*dev(?:iation)?\.?|stdev|stddev|std|sd|sigma|σ|uncertainty|standardabweichung|[ée]cart[\s_-]*type|desviaci[óo]n[\s_]+(?:est[áa]ndar|t[íi]pica)|desvio[\s_]+padr[ãa]o`,
);

export const ANSWER_LABEL = label(
  String.raw`(?:final[\s_]+)?(?:answer|prediction|forecast|estimate|value)|schätzung|prognose|estimaci[óo]n|estimation|pron[óo]stico|previsi[óo]n|pr[ée]vision`,
);
