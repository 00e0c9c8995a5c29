/**
 * 100 kB replies of thousands of numbers, in the shapes a long reply takes: one line, a line or
 * a paragraph per figure, option-labelled lines, a markdown table, figures in sentences, ranges
 * and percentiles. Each reader has its own per-line and per-figure work, so one shape alone
 * hides the others' cost.
 */
export interface NumberShape {
  name: string;
  reply: string;
}

const OPTION_NAMES = ["Labour", "Conservative", "Reform UK", "Liberal Democrats"];
const LETTERS = ["A", "B", "C", "D"];
const PERCENTILES = ["5th", "10th", "25th", "50th", "75th", "90th", "95th"];

/** The index-th figure: varied, so no reader meets the same text twice in a row. */
function figure(index: number): string {
  return `${index % 97}.${index % 10}`;
}

/** Pieces joined until the reply holds `characters`, cut there. */
export function repeated(
  characters: number,
  piece: (index: number) => string,
  joiner: string,
): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const part = piece(index);
    parts.push(part);
    length += part.length + joiner.length;
  }
  return parts.join(joiner).slice(0, characters);
}

const SENTENCES = [
  (index: number) => `Labour polled ${figure(index)}% in the spring, up from ${index % 50}%.`,
  (index: number) => `Turnout was ${figure(index)}% and ${index % 14} seats changed hands.`,
  (index: number) => `Reform UK sits at ${figure(index)}% in ${index % 30} polls this month.`,
  (index: number) => `Markets imply ${index % 9} to 1 against, a ${figure(index)}% chance.`,
];

export function numberShapes(characters: number): NumberShape[] {
  const shape = (name: string, piece: (index: number) => string, joiner: string) => ({
    name,
    reply: repeated(characters, piece, joiner),
  });
  return [
    shape("numbers on one line", (index) => `${figure(index)}%`, " "),
    shape("one number per line", (index) => `${figure(index)}%`, "\n"),
    shape("one number per paragraph", (index) => `${figure(index)}%`, "\n\n"),
    shape("option letters per line", (index) => `${LETTERS[index % 4]}: ${figure(index)}%`, "\n"),
    shape(
      "option names per line",
      (index) => `${OPTION_NAMES[index % 4]}: ${figure(index)}%`,
      "\n",
    ),
    shape(
      "markdown table",
      (index) =>
        index === 0
          ? "| Option | Poll | Seats |\n|---|---|---|"
          : `| ${OPTION_NAMES[index % 4]} | ${figure(index)}% | ${index % 650} |`,
      "\n",
    ),
    shape("figures in sentences", (index) => SENTENCES[index % 4]?.(index) ?? "", " "),
    shape(
      "ranges and percentiles",
      (index) =>
        index % 2 === 0
          ? `${PERCENTILES[(index / 2) % 7]}: ${figure(index)}`
          : `${index % 60}–${(index % 60) + 5}%`,
      "\n",
    ),
  ];
}
