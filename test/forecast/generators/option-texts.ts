import * as fc from "fast-check";

const NAME_WORDS = [
  "Labour",
  "Reform",
  "party",
  "of",
  "the",
  "United",
  "Saint-Germain",
  "Le",
  "Pen",
];

/** Words a long option text is made of: names, stop words, numbers, accents, punctuation. */
const word = fc.oneof(
  fc.constantFrom(...NAME_WORDS),
  fc.stringMatching(/^[a-zà-ÿ]{1,9}$/),
  fc.stringMatching(/^\d{1,4}(?:\.\d{1,2})?%?$/),
  fc.constantFrom("–", "-", "(", ")", "&", "/", ":", "a", "A"),
);

/**
 * Option texts of `minLength` to `maxLength` characters in the shapes that cost a name matcher
 * most: one word repeated, few words in many orders, many distinct words, and separators.
 */
export function longOptionText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const repeated = fc
    .tuple(word, fc.constantFrom(" ", "-", " - ", ", "))
    .map(([single, gap]) => Array.from({ length: maxLength }, () => single).join(gap));
  const mixed = fc.array(word, { minLength: 200, maxLength: 400 }).map((words) => words.join(" "));
  return fc
    .oneof(repeated, mixed)
    .map((text) => text.slice(0, maxLength).trim())
    .filter((text) => text.length >= minLength);
}

/** A reply that mentions the options' words throughout, then states a split. */
export function replyAbout(options: string[], characters: number): string {
  const words = options.flatMap((text) => text.split(/\s+/)).slice(0, 400);
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const sentence = `${words.slice(index % 40, (index % 40) + 12).join(" ")} polled ${index % 60}% last week.`;
    parts.push(sentence);
    length += sentence.length + 1;
  }
  const split = options.map(
    (text, index) => `${text.slice(0, 40)}: ${index === 0 ? 60 : 40 / (options.length - 1)}%`,
  );
  return `${parts.join(" ")}\n\n${split.join("\n")}`;
}
