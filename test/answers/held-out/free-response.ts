import type { ForecastAnswer } from "../../../src/forecast/index.js";
import { type HeldOutReply, words } from "./reply.js";

const PRIZE = `The shortlist has 6 novels. Bookmakers have "The Salt Road" at 5/2 and "Glass Orchard" at 3/1; the judges' chair has praised debut novels twice this year. Past winners skew literary: 7 of the last 10 were published by independent presses.`;
const HOSTS = `Three cities remain in the targeted dialogue: Doha, Istanbul and Ahmedabad. Doha has hosted 18 major events since 2006 and has venues ready; Istanbul has bid 5 times; Ahmedabad has strong government backing but few venues. The last 3 awards went to the preferred candidate.`;
const CHAIR = `The committee chair retires in January. Seniority favours Rep. Alvarez (14 years on the committee), but leadership has bypassed seniority 3 times since 2011, and Rep. Okafor raised $4.2M for colleagues this cycle.`;

const PREAMBLES = [PRIZE, HOSTS, CHAIR];

type Row = [kind: string, final: string, expected: ForecastAnswer | null];

function replies(group: string, rows: Row[], offset = 0): HeldOutReply[] {
  return rows.map(([kind, final, expected], index) => ({
    id: `free_response/${group}/${index}`,
    kind: `free response ${kind}`,
    type: "free_response",
    reply: `${PREAMBLES[(index + offset) % PREAMBLES.length]}\n\n${final}`,
    expected,
  }));
}

const rows: Row[] = [
  ["answer line", "Answer: Glass Orchard", words("Glass Orchard")],
  [
    "answer then rivals",
    "Answer: Doha.\n\nOther plausible hosts include Istanbul and Ahmedabad, but neither has Doha's venues.",
    words("Doha"),
  ],
  [
    "bold then rivals",
    "**Rep. Okafor**\n\nRep. Alvarez remains a strong alternative, and a compromise pick such as Rep. Lin is possible.",
    words("Rep. Okafor"),
  ],
  ["tag", "<answer>The Salt Road</answer>", words("The Salt Road")],
  [
    "final answer then alternatives sentence",
    "Final answer: Istanbul\n\nThe alternatives, Doha and Ahmedabad, each have a path but a narrower one.",
    words("Istanbul"),
  ],
  ["refusal", "I can't predict the winner of a literary prize with any confidence.", null],
  ["template", "Answer: [your answer here]", null],
  ["undecided", "Answer: either Doha or Istanbul.", null],
  [
    "first line committed",
    "Doha.\n\nIt has the venues, the money and the IOC's recent preference for ready hosts; Istanbul is the main rival.",
    words("Doha"),
  ],
  ["answer with chance", "Answer: Rep. Alvarez (about 55%)", words("Rep. Alvarez")],
  [
    "revision",
    "Answer: Glass Orchard\n\nUpdate: on reflection the chair's comments favour debuts. Final answer: The Salt Road",
    words("The Salt Road"),
  ],
  ["refusal", "I'd rather not guess; there isn't enough information to choose a host.", null],
  [
    "prediction label",
    "My prediction: Ahmedabad — the government backing outweighs the venue gap.",
    words("Ahmedabad"),
  ],
  ["boxed", "\\boxed{Rep. Okafor}", words("Rep. Okafor")],
  [
    "answer then ranking",
    "**Answer:** Doha\n\nRanking: 1. Doha 2. Istanbul 3. Ahmedabad",
    words("Doha"),
  ],
  ["template", "<answer>text</answer>", null],
  ["json", '```json\n{"answer": "Istanbul", "confidence": 0.4}\n```', words("Istanbul")],
];

export const freeResponseHeldOut: HeldOutReply[] = [
  ...replies("first", rows),
  ...replies("second", rows, 1),
  ...replies("third", rows, 2),
];
