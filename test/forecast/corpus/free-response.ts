import type { ForecastAnswer } from "../../../src/forecast/index.js";
import { type CorpusReply, FENCE, text } from "./reply.js";

const TOURNAMENT = `Looking at the contenders: Spain won Euro 2024 and have a squad value of €1.1bn; France reached the final in 2018 and 2022; Argentina are holders but their core is ageing (Messi turns 39 in 2026). Bookmakers have Spain at 5/1, France 6/1, England 7/1, Brazil 8/1. Elo ratings: Spain 2,170, Argentina 2,140, France 2,090.`;

const HOST = `The bid process for the 2036 Games has 10 interested cities. Doha has hosted 18 major events since 2006 and has venues ready; Ahmedabad has government backing but limited venues; Istanbul has bid 5 times before. The IOC now uses a targeted dialogue, and the last 3 awards went to the preferred candidate.`;

const row = (id: string, reply: string, expected: ForecastAnswer | null): CorpusReply => ({
  id: `free/${id}`,
  type: "free_response",
  reply,
  expected,
});

const marked: CorpusReply[] = [
  row(
    "answer then dash reason",
    `${TOURNAMENT}\n\nAnswer: Spain — because they have the deepest squad.`,
    text("Spain"),
  ),
  row("bold answer", `${HOST}\n\n**Answer: Doha**`, text("Doha")),
  row("boxed", `${HOST}\n\n\\boxed{Doha}`, text("Doha")),
  row("boxed text", "Final answer: $\\boxed{\\text{Doha}}$", text("Doha")),
  row(
    "json answer",
    `${FENCE}json\n{"answer": "Doha", "confidence": 0.45}\n${FENCE}`,
    text("Doha"),
  ),
  row("json prediction", '{"prediction": "Spain"}', text("Spain")),
  row(
    "answer then reason in brackets",
    "Answer: Spain (they have the strongest squad)",
    text("Spain"),
  ),
  row("answer comma because", "Answer: Spain, because of its squad depth.", text("Spain")),
  row("answer because", "Answer: Spain because of its squad depth", text("Spain")),
  row("answer en dash reason", "Answer: Spain – due to form and depth", text("Spain")),
  row("answer hyphen reason", "Answer: Spain - they won the last major tournament", text("Spain")),
  row("answer colon reason", "Answer: Spain: they have the strongest midfield", text("Spain")),
  row("answer semicolon alternative", "Answer: Spain; a close second is France.", text("Spain")),
  row(
    "answer full stop then alternative",
    "Answer: Spain. France is the main alternative.",
    text("Spain"),
  ),
  row("answer with percent in brackets", "Answer: Spain (55%)", text("Spain")),
  row("answer with confidence in brackets", "Answer: Spain (with ~40% confidence)", text("Spain")),
  row("final answer line", `${TOURNAMENT}\n\nFinal answer: France`, text("France")),
  row("prediction bold label", "**Prediction:** Spain", text("Spain")),
  row("answer header", `${TOURNAMENT}\n\n## Final Answer\n\nSpain`, text("Spain")),
  row(
    "runners-up after the answer",
    `${TOURNAMENT}\n\nAnswer: Brazil\n\nRunners-up: France, Argentina, England`,
    text("Brazil"),
  ),
  row(
    "answer then a paragraph of alternatives",
    `Answer: Doha\n\nOther plausible hosts are Ahmedabad and Istanbul, which I rate at 20% and 15%.`,
    text("Doha"),
  ),
  row("answer tag", `${HOST}\n\n<answer>Doha</answer>`, text("Doha")),
  row(
    "answer tag with reason after",
    "<answer>Doha</answer>\n\nIstanbul is the runner-up.",
    text("Doha"),
  ),
  row("my prediction bold name", "My prediction: **Kenya**.", text("Kenya")),
  row("quoted answer", 'Answer: "Oppenheimer"', text("Oppenheimer")),
  row("italic answer", "Answer: *Oppenheimer*", text("Oppenheimer")),
  row("the answer is sentence", "Final answer: The answer is Spain.", text("Spain")),
  row("answer with trailing full stop", "Answer: Spain.", text("Spain")),
  row("last line alone", `${TOURNAMENT}\n\nSpain`, text("Spain")),
  row(
    "answer with a long reason after an em dash",
    "Answer: Argentina — the holders keep most of their 2022 side, and South American qualifiers have been strong",
    text("Argentina"),
  ),
];

const multiWord: CorpusReply[] = [
  row("and in a country name", "Answer: Bosnia and Herzegovina", text("Bosnia and Herzegovina")),
  row("hyphen in a country name", "Answer: Guinea-Bissau", text("Guinea-Bissau")),
  row(
    "and in a country name with reason",
    "Answer: Trinidad and Tobago — they top the group on goal difference",
    text("Trinidad and Tobago"),
  ),
  row(
    "hyphenated name with reason",
    "Answer: Guinea-Bissau - because the two favourites drew",
    text("Guinea-Bissau"),
  ),
  row("person name", "Final answer: Jacinda Ardern", text("Jacinda Ardern")),
  row(
    "club with reason",
    "Answer: Real Madrid (they lead by 6 points with 5 games left)",
    text("Real Madrid"),
  ),
  row("accented city", "Answer: São Paulo", text("São Paulo")),
  row("the in a country name", "Answer: The Netherlands", text("The Netherlands")),
  row("film title with colon kept in json", '{"answer": "Dune: Part Two"}', text("Dune: Part Two")),
  row(
    "json long name",
    '{"answer": "Bosnia and Herzegovina", "confidence": 0.4}',
    text("Bosnia and Herzegovina"),
  ),
  row("person with party letter", "Answer: Joe Manchin (I)", text("Joe Manchin")),
  row("United States", "**Answer:** United States of America", text("United States of America")),
  row("name with an initial", "Answer: J. D. Vance", text("J. D. Vance")),
  row("hyphenated surname", "Answer: Alexandria Ocasio-Cortez", text("Alexandria Ocasio-Cortez")),
  row("number answer", "Answer: 42", text("42")),
  row("boxed multi word", "\\boxed{Trinidad and Tobago}", text("Trinidad and Tobago")),
];

const otherLanguages: CorpusReply[] = [
  row("German answer", "Antwort: Spanien", text("Spanien")),
  row(
    "Spanish answer with reason",
    "Respuesta: España — porque tiene la plantilla más completa",
    text("España"),
  ),
  row("French answer", "Réponse : Espagne", text("Espagne")),
  row("German final answer", "Endgültige Antwort: Frankreich", text("Frankreich")),
];

export const freeResponseReplies: CorpusReply[] = [...marked, ...multiWord, ...otherLanguages];
