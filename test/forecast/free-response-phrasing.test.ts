import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";

interface Row {
  name: string;
  reply: string;
  /** null: the reply commits to no answer and extraction must say so. */
  expected: string | null;
}

const marked: Row[] = [
  {
    name: "Answer line followed by a runners-up paragraph",
    reply: `The 2030 World Cup final venue is chosen among the three co-hosts. Spain has two
stadiums above 80,000 seats and hosted the 1982 final; Morocco is building the 115,000-seat
Grand Stade Hassan II.

Answer: Spain

Runners-up: Morocco (about 35%) and Portugal (about 5%).`,
    expected: "Spain",
  },
  {
    name: "bold Answer line inside the bold",
    reply: `Doha hosted 2 of the last 5 events and has the only indoor venue that meets the new rules.

**Answer: Doha**

Other plausible hosts are Riyadh and Abu Dhabi, each with roughly a 20% chance.`,
    expected: "Doha",
  },
  {
    name: "bold label, answer outside the bold",
    reply: `Considering recent form (4 wins in 6), the draw and injuries:

**Final answer:** Carlos Alcaraz

Jannik Sinner is second most likely, then Novak Djokovic.`,
    expected: "Carlos Alcaraz",
  },
  {
    name: "boxed answer with runners-up after it",
    reply: `Base rates: the incumbent city won 3 of 4 recent bids.

The final answer is $\\boxed{Doha}$.

If not Doha, then Riyadh (25%) or Istanbul (10%).`,
    expected: "Doha",
  },
  {
    name: "boxed text command",
    reply: `Weighing the 12 candidate films, the frontrunner swept the guild awards.

\\boxed{\\text{Oppenheimer}}

Close behind: Poor Things and Killers of the Flower Moon.`,
    expected: "Oppenheimer",
  },
  {
    name: "JSON answer object after reasoning",
    reply: `The party leading in 9 of the last 10 polls is still favoured, though its lead shrank
from 8 to 3 points.

\`\`\`json
{"answer": "Social Democratic Party", "confidence": 0.55}
\`\`\`

The Christian Democrats remain the main alternative.`,
    expected: "Social Democratic Party",
  },
  {
    name: "JSON prediction object inline",
    reply: `Given the transfer window and 3 bids reported, my forecast is below.
{"prediction": "Real Madrid", "probability": 0.4, "alternatives": ["PSG", "Arsenal"]}`,
    expected: "Real Madrid",
  },
  {
    name: "Answer label on its own line, answer on the next",
    reply: `The shortlist has 4 names; two withdrew last week.

Final Answer:
Maria Schmidt

Second choice would be Jonas Weber.`,
    expected: "Maria Schmidt",
  },
  {
    name: "markdown heading then the answer",
    reply: `## Reasoning
The largest 2024 IPO by raised capital so far is at $3.2B; two larger listings are planned.

## Final Answer
Shein

## Alternatives
Stripe, Databricks`,
    expected: "Shein",
  },
  {
    name: "answer with a closing full stop",
    reply: `Of the 5 finalists, the host nation usually wins the vote.

Answer: Brisbane.

Also considered: Doha, Budapest.`,
    expected: "Brisbane",
  },
  {
    name: "quoted answer",
    reply: `Track record of 7 previous titles in the series points to a sequel title.

Answer: "Dune: Part Three"

Runner-up guess: "Dune Messiah".`,
    expected: "Dune: Part Three",
  },
  {
    name: "a draft answer corrected by a later one",
    reply: `Initial thought — Answer: Lyon
On reflection the 2 budget cuts rule Lyon out.

Answer: Marseille

Next most likely: Lyon, Nice.`,
    expected: "Marseille",
  },
  {
    name: "answer tag holding a bold answer",
    reply: `Reasoning about the 3 candidates...
<answer>**Doha**</answer>`,
    expected: "Doha",
  },
  {
    name: "answer tag holding an Answer line",
    reply: `<answer>Answer: Washington, D.C.</answer>`,
    expected: "Washington, D.C.",
  },
  {
    name: "bullet Prediction line",
    reply: `- Base rate: 60% of such awards go to the favourite
- Prediction: Kendrick Lamar
- Runners-up: Taylor Swift, Beyoncé`,
    expected: "Kendrick Lamar",
  },
  {
    name: "answer with its chance in brackets",
    reply: `The three front-runners are within 6 points of each other.

Answer: **Spain** (about 40%)

Then Portugal (30%) and Morocco (25%).`,
    expected: "Spain",
  },
  {
    name: "a sentence answer keeps its full stop",
    reply: `Answer: The incumbent party keeps control of the chamber, losing 4 to 8 seats.

Alternative: a hung chamber.`,
    expected: "The incumbent party keeps control of the chamber, losing 4 to 8 seats.",
  },
  {
    name: "the answer format echoed before the answer",
    reply: `Answer format: a single city name.

Reasoning: 3 bids remain after 2 withdrawals.

**Answer:** Doha`,
    expected: "Doha",
  },
  {
    name: "final answer stated in a sentence",
    reply: `Spain has hosted 2 finals and has the largest stadium.\n\nMy final answer is Spain.\n\nRunners-up: France, Morocco.`,
    expected: "Spain",
  },
  {
    name: "boxed inside an Answer line",
    reply: `Final Answer: \\boxed{Spain}\n\nAlso considered: France (20%).`,
    expected: "Spain",
  },
  {
    name: "final answer is, with a colon and bold",
    reply: `Weighing the 4 bids:\n\nMy final answer is: **Qatar**\n\nNext most likely: UAE`,
    expected: "Qatar",
  },
  {
    name: "capitalised label",
    reply: `ANSWER: Kenya\n\nOther contenders: Ethiopia, Uganda`,
    expected: "Kenya",
  },
];

const unmarked: Row[] = [
  {
    name: "unmarked reply ends with the answer",
    reply: `Five candidates remain after the 2nd round. The polling leader has 38%.

Rafael Nadal`,
    expected: "Rafael Nadal",
  },
];

const undecided: Row[] = [
  {
    name: "marked answer that names two candidates",
    reply: `Both cities have 50,000+ hotel rooms and bids worth $2B.

Answer: either Spain or Portugal

I cannot separate them.`,
    expected: null,
  },
  {
    name: "empty JSON answer",
    reply: `{"answer": "", "confidence": 0.1}`,
    expected: null,
  },
];

const answerThenReason = (answer: string, after: string): Row => ({
  name: `${answer} then ${JSON.stringify(after.slice(0, 24))}`,
  reply: `The favourite won 3 of the last 5 editions; the field has 12 serious contenders.\n\nAnswer: ${answer}${after}`,
  expected: answer,
});

// What a model writes after its answer to justify it, kept apart from names that contain dashes,
// "and", full stops and brackets of their own.
const justified: Row[] = [
  ...[
    "Spain",
    "Bosnia and Herzegovina",
    "Guinea-Bissau",
    "Trinidad and Tobago",
    "J. D. Vance",
  ].flatMap((answer) =>
    [
      " — because they have the deepest squad.",
      " – due to form and depth",
      " - they won the last major tournament",
      " (they lead the group by 6 points)",
      ", because of the easier draw.",
      " because of the easier draw",
      ": they have the strongest midfield",
      "; a close second is France.",
      ". France is the main alternative.",
      " (55%)",
      ", since the holders look tired",
    ].map((after) => answerThenReason(answer, after)),
  ),
  answerThenReason("Alexandria Ocasio-Cortez", ", given her fundraising lead."),
  answerThenReason("Real Madrid", " (6 points clear with 5 games left)"),
  answerThenReason("St. Louis", " — the bid with the most venues."),
  answerThenReason("São Paulo", " — by a distance"),
  {
    name: "title with a colon in JSON",
    reply: '{"answer": "Dune: Part Two"}',
    expected: "Dune: Part Two",
  },
  {
    name: "the answer is sentence",
    reply: "Final answer: The answer is Spain.",
    expected: "Spain",
  },
  { name: "bold answer with a full stop", reply: "My prediction: **Kenya**.", expected: "Kenya" },
  { name: "German label", reply: "Antwort: Spanien", expected: "Spanien" },
  { name: "German final label", reply: "Endgültige Antwort: Frankreich", expected: "Frankreich" },
  {
    name: "Spanish label with a reason",
    reply: "Respuesta: España — porque tiene la plantilla más completa",
    expected: "España",
  },
  {
    name: "French label with a space before the colon",
    reply: "Réponse : Espagne",
    expected: "Espagne",
  },
  { name: "Italian label", reply: "Risposta: Italia", expected: "Italia" },
];

const rows = [...marked, ...unmarked, ...undecided, ...justified];

function extracted(row: Row): string | null {
  const answer = extractAnswer("free_response", row.reply, null);
  return answer?.type === "free_response" ? answer.text : null;
}

describe("free-response answers however the model marks them", () => {
  it.each(rows)("$name", (row) => {
    expect(extracted(row)).toBe(row.expected);
  });

  it("reads every marked answer (0 silent misreads)", () => {
    const correct = marked.filter((row) => extracted(row) === row.expected).length;
    expect(correct).toBe(marked.length);
  });
});
