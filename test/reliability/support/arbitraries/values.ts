import * as fc from "fast-check";

/** Strings that have broken parsers, databases and loggers before. */
const AWKWARD_STRINGS = [
  "",
  " ",
  "\u0000",
  "nul\u0000inside",
  "\t\r\n",
  "é",
  "日本語のテキスト",
  "🦄🌈👩‍👩‍👧‍👦",
  "\u202eevil\u202c",
  "e\u0301\u0301\u0301",
  "\ud800",
  "\udfff\ud800",
  "\ufeffbom",
  "\u2028\u2029",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00%2e%2e%2f",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\u0024{jndi:ldap://127.0.0.1/x}", // a log4j lookup
  "{{7*7}}",
  '"\\',
  "null",
  "NaN",
  "-Infinity",
  "1e999",
  "x".repeat(70_000),
];

/** Any text, weighted towards the awkward kind. */
export const awkwardString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...AWKWARD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Numbers at and beyond every limit a schema might set. */
export const edgeNumber: fc.Arbitrary<number> = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  0.5,
  1.5,
  2,
  2.0000001,
  64,
  65,
  100,
  101,
  3599,
  2_592_001,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e21,
  1e300,
  -1e300,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
);

/** Arrays and objects nested `depth` levels deep, around the body parser's limit of 256. */
export function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
  return value;
}

/** A JSON value of any type or shape, including the large and the deep. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: edgeNumber },
  { weight: 2, arbitrary: awkwardString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { "": null }) },
  { weight: 1, arbitrary: fc.constantFrom(255, 257, 1000).map((depth) => nested(depth)) },
);

const QUESTIONS = [
  "Will the Seine freeze over in Paris before 2030?",
  "Which team wins the final? A) Red B) Blue C) Green",
  "How many people will attend next year, given 1,200 last year?",
  "What will the unemployment rate be in March? Give one number.",
  "Describe the most likely outcome of the election.",
  "Probability: ZZ%",
];

/** Prompt text: a question, some noise, and the run's marker that must never reach the log. */
export function promptText(canary: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...QUESTIONS), fc.oneof(fc.constant(""), awkwardString))
    .map(([question, noise]) => `${question} ${noise.slice(0, 2_000)} ${canary}`);
}
