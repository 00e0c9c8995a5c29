/**
 * Letters of other scripts drawn like Latin ones (after NFKC, which already folds full-width and
 * mathematical letters): a reader sees "Мay" with a Greek or Cyrillic capital as "May". Each maps
 * to the Latin letter it is drawn as, in the same case; letters only loosely alike are left out,
 * so that words of those scripts are not misread as Latin ones.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  А: "A",
  а: "a",
  В: "B",
  Е: "E",
  е: "e",
  Һ: "H",
  һ: "h",
  Н: "H",
  І: "I",
  і: "i",
  Ӏ: "I",
  ӏ: "l",
  Ј: "J",
  ј: "j",
  К: "K",
  к: "k",
  М: "M",
  О: "O",
  о: "o",
  Р: "P",
  р: "p",
  С: "C",
  с: "c",
  Ѕ: "S",
  ѕ: "s",
  Т: "T",
  У: "Y",
  у: "y",
  Х: "X",
  х: "x",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  Ԝ: "W",
  ѵ: "v",
  Ѵ: "V",
  // Greek
  Α: "A",
  α: "a",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  ι: "i",
  Κ: "K",
  κ: "k",
  Μ: "M",
  Ν: "N",
  ν: "v",
  Ο: "O",
  ο: "o",
  Ρ: "P",
  ρ: "p",
  Τ: "T",
  Υ: "Y",
  υ: "u",
  γ: "y",
  Χ: "X",
  χ: "x",
  // Armenian
  ս: "u",
  Ս: "U",
  օ: "o",
  Օ: "O",
  ո: "n",
  հ: "h",
  ց: "g",
  // Latin letters outside the basic alphabet
  ı: "i",
  ɩ: "i",
  ȷ: "j",
  ɑ: "a",
  ɡ: "g",
  ʏ: "y",
};

const LOOK_ALIKE = new Map(Object.entries(LOOK_ALIKES));

/**
 * The word as a reader sees it when every one of its letters looks like a Latin letter ("Мау" in
 * Cyrillic reads "May"), otherwise null: a word with any letter of its own script stays in that
 * script. One pass over the word.
 */
export function latinLookAlike(word: string): string | null {
  let latin = "";
  for (const char of word) {
    const code = char.charCodeAt(0);
    if (code < 128) {
      latin += char;
      continue;
    }
    const lookAlike = LOOK_ALIKE.get(char);
    if (lookAlike === undefined) return null;
    latin += lookAlike;
  }
  return latin;
}
