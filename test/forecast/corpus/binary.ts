import type { ForecastAnswer } from "../../../src/forecast/index.js";
import { type CorpusReply, FENCE, yes } from "./reply.js";

const BILL = `## Analysis

The bill cleared committee 14-9 on March 3. Historically, about 38% of bills that clear committee in this chamber reach a floor vote, and of those roughly 70% pass. That gives a naive base rate near 27%. Prediction markets currently trade at 31¢. The sponsor has 212 cosponsors, 6 short of a majority, and leadership said in 2023 that it would not schedule it. Polling shows 58% public support, up from 51% in 2022.`;

const RATES = `Let me think step by step.

1. The Fed has held rates at 5.25–5.50% for 9 consecutive meetings.
2. Core PCE is running at 2.8% year on year, versus the 2% target.
3. Futures price about a 62% chance of a cut by September, down from 80% a month ago.
4. Unemployment ticked up to 4.1%; in 3 of the last 4 cycles a 0.5 point rise preceded cuts.
5. Two of 12 FOMC voters have signalled support for a cut.`;

const MATCH = `Team A has won 7 of its last 10 matches and 64% of home games over 3 seasons. The opponent's xG difference is +0.4 per game. Bookmakers price the match at 2.10 / 3.40 / 3.60, which implies about 45% for a home win after removing the margin. Injuries: 2 starters out. Head-to-head since 2015: 9 wins, 4 draws, 6 losses.`;

const LAUNCH = `**Background.** The company announced the product in 2024 and said shipping would start "within 18 months". Only 4 of their 11 previous hardware announcements shipped on time (36%). Supply chain reports mention 2 million units ordered. Their CFO put "better than 50/50" odds on the date in an interview; analysts at two banks say 40% and 55%.`;

const TREATY = `### Key considerations

- **Base rate:** of 23 comparable treaties since 1990, 9 were ratified within two years (39%).
- **Votes:** ratification needs 67 of 100 senators; a whip count has 58 in favour and 11 undecided.
- **Timing:** the session ends on 20 December, leaving about 6 legislative weeks.
- **Signals:** the committee chair called it "a priority for Q4", but said the same in 2022.`;

const GERMAN = `Die Basisrate für vergleichbare Gesetzesvorhaben liegt bei etwa 20 %. Im Jahr 2023 scheiterten 3 von 5 ähnlichen Entwürfen im Bundesrat. Die Umfragen zeigen 61,5 % Zustimmung in der Bevölkerung, aber nur 2 der 16 Länder haben sich klar festgelegt.`;

const SPANISH = `Según los datos de 2019, el 45% de los proyectos similares fueron aprobados, y el partido del gobierno controla 176 de 350 escaños. Las encuestas muestran un 38,2% de apoyo.`;

const FRENCH = `Le taux de base est d'environ 40 % pour ce type de réforme. En 2021, 7 réformes sur 12 ont été adoptées (58,3 %). Les sondages donnent 47,5 % d'opinions favorables.`;

const row = (id: string, reply: string, expected: ForecastAnswer | null): CorpusReply => ({
  id: `binary/${id}`,
  type: "binary",
  reply,
  expected,
});

const marked: CorpusReply[] = [
  row("bold final answer after analysis", `${BILL}\n\n**Final answer: 22%**`, yes(0.22)),
  row("probability decimal after numbered steps", `${RATES}\n\nProbability: 0.35`, yes(0.35)),
  row("final probability after odds talk", `${MATCH}\n\nFinal probability: 48%`, yes(0.48)),
  row("my forecast sentence", `${LAUNCH}\n\nMy forecast: 30%.`, yes(0.3)),
  row("header then bold figure", `${BILL}\n\n### Final forecast\n\n**17%**`, yes(0.17)),
  row("final colon decimal", `${RATES}\n\nFinal: 0.41`, yes(0.41)),
  row(
    "sentence then answer line",
    "Putting it together, I estimate a 12% probability that the treaty is ratified by the deadline.\n\nAnswer: 12%",
    yes(0.12),
  ),
  row("forecast bold decimal", `${LAUNCH}\n\nForecast: **0.28**`, yes(0.28)),
  row("asterisked decimal", `${MATCH}\n\n*0.52*`, yes(0.52)),
  row("percent spelled out", `${BILL}\n\nProbability: 15 percent`, yes(0.15)),
  row(
    "reasoning block then label",
    "<think>Base rate 20%, market says 35%, maybe 30%? The committee vote is 14-9.</think>\nProbability: 27%",
    yes(0.27),
  ),
  row("final answer capitalised decimal", `${RATES}\n\nFinal Answer: 0.6`, yes(0.6)),
  row("bottom line", `${LAUNCH}\n\nBottom line: 25%.`, yes(0.25)),
  row("in conclusion I'd put it at", `${TREATY}\n\nIn conclusion, I'd put it at 8%.`, yes(0.08)),
  row("my final prediction is", `${MATCH}\n\nMy final prediction is 55%.`, yes(0.55)),
  row("answer tag decimal", `${BILL}\n\n<answer>0.35</answer>`, yes(0.35)),
  row("answer tag percent", `${RATES}\n\n<answer>35%</answer>`, yes(0.35)),
  row(
    "answer tag after a different prose figure",
    `${TREATY}\n\nI'd say about 30%, but the whip count pulls me down.\n\n<answer>0.24</answer>`,
    yes(0.24),
  ),
  row("answer tag with spaces", `${LAUNCH}\n<answer> 0.7 </answer>`, yes(0.7)),
  row(
    "vote date and count before the label",
    "The vote is on 12 June 2025; 218 votes are needed and 201 are committed.\n\nProbability: 44%",
    yes(0.44),
  ),
  row(
    "zero percent stays zero",
    "The deadline passed yesterday with no filing.\n\nProbability: 0%",
    yes(0),
  ),
  row("answer with a bare small figure", `${BILL}\n\nAnswer: 5`, yes(0.05)),
  row("probability label in bold with yes", "**Probability (YES): 0.58**", yes(0.58)),
  row("blockquote final forecast", `${TREATY}\n\n> Final forecast: 9%`, yes(0.09)),
  row("final percentage heading", `${RATES}\n\n## Final Probability\n61%`, yes(0.61)),
];

const markerBeatsOtherNumbers: CorpusReply[] = [
  row(
    "final then context figure",
    "Final: 20%. For context, last year 45% of similar bills passed.",
    yes(0.2),
  ),
  row(
    "final forecast then confidence",
    "My final forecast: 35%\nConfidence in this forecast: 80%",
    yes(0.35),
  ),
  row(
    "initial estimate then landing",
    "Initial estimate: 50%\n\nAfter weighing the committee vote and leadership opposition, I land at 40%.",
    yes(0.4),
  ),
  row(
    "final introduces prose, probability label decides",
    "Final: I expect only modest 60% support in the chamber, well short of the 67% needed. Probability: 30%",
    yes(0.3),
  ),
  row(
    "final assessment paragraph with several figures then a probability",
    `${BILL}\n\nFinal assessment: support is at 58% and the base rate near 27%, so the bill is an underdog.\n\nProbability: 24%`,
    yes(0.24),
  ),
  row(
    "final answer then the market in brackets",
    "**Final answer:** 12% (the market says 20%, which I think overstates it)",
    yes(0.12),
  ),
  row(
    "final probability then a base-rate note",
    "Final probability: 0.33. Note that 5 of the last 7 similar events resolved YES (71%).",
    yes(0.33),
  ),
  row(
    "starting point, revision, final answer",
    "My starting point is the 25% base rate. Adjusting for the strong polling, I'd revise to 35%. On reflection the polling lead is fragile, so my final answer is 30%.",
    yes(0.3),
  ),
  row(
    "first pass then revised probability",
    "First pass: 70%.\nSecond look: the deadline is tight.\nRevised probability: 55%",
    yes(0.55),
  ),
  row(
    "final forecast then uncertainties with figures",
    "Final forecast: 18%\n\nKey uncertainties:\n- turnout (could swing it by 10 points)\n- a 40% chance the court delays the ruling",
    yes(0.18),
  ),
  row(
    "probability then why not higher",
    "Probability: 65%\n\nWhy not higher? In 2016 the same polls were off by 8 points, and about 30% of such leads evaporate in the last month.",
    yes(0.65),
  ),
  row("final answer bare number", `${BILL}\n\nFinal answer: 35`, yes(0.35)),
  row("final answer bare number with full stop", `${RATES}\n\nFinal answer: 35.`, yes(0.35)),
  row("final answer shouted bare number", `${MATCH}\n\nFINAL ANSWER: 7`, yes(0.07)),
  row("final answer dash bare number", `${LAUNCH}\n\nFinal answer — 62`, yes(0.62)),
  row("my final answer is bare number", `${TREATY}\n\nMy final answer is 80.`, yes(0.8)),
  row(
    "final with a later year and count",
    "Final: 15%. The next chance after this is the 2027 session, when 3 seats rotate.",
    yes(0.15),
  ),
  row(
    "final marker mid-paragraph with the market later",
    "Weighing it all, my final probability is 0.22, a bit under the 31% the market shows.",
    yes(0.22),
  ),
  row(
    "final prediction with a scenario split after",
    "Final prediction: 40%\n\nScenario split: 25% quick passage, 15% late passage, 60% no passage.",
    yes(0.4),
  ),
];

const statedForNo: CorpusReply[] = [
  row("probability of no label", `${BILL}\n\nProbability of NO: 85%`, yes(0.15)),
  row("chance it does not pass", "I put the chance it does not pass at 85%.", yes(0.15)),
  row("likely to fail", "On balance the measure looks 85% likely to fail.", yes(0.15)),
  row("odds it won't happen", "Odds it won't happen: 85%", yes(0.15)),
  row("p of no equals", "P(NO) = 0.7", yes(0.3)),
  row(
    "chance this doesn't happen",
    `${RATES}\n\nI think there's a 90% chance this doesn't happen by the deadline.`,
    yes(0.1),
  ),
  row(
    "probability the merger will not close",
    "There is roughly a 75% probability that the merger will not close before 2026.",
    yes(0.25),
  ),
  row(
    "probability that the bill fails is",
    "The probability that the bill fails is 60%.",
    yes(0.4),
  ),
  row("chance of no label", "Chance of NO: 92%", yes(0.08)),
  row("confident it will not happen", "I'm 80% confident it will not happen.", yes(0.2)),
  row(
    "no figure then yes figure",
    "My estimate: 70% that it does NOT happen, so 30% for YES.",
    yes(0.3),
  ),
  row("probability no in brackets", "Probability (No): 0.65", yes(0.35)),
  row("no then yes lines", "NO: 88%\nYES: 12%", yes(0.12)),
  row("yes then no inline", "YES: 12% / NO: 88%", yes(0.12)),
  row(
    "odds of not happening in words",
    "I'd put the odds of it not happening at 3 in 4.",
    yes(0.25),
  ),
  row(
    "chance it fails to pass",
    `${BILL}\n\nI estimate an 80% chance it fails to pass this session.`,
    yes(0.2),
  ),
  row(
    "won't be approved percentage",
    "I'm putting 70% on the application not being approved in time.",
    yes(0.3),
  ),
  row("probability it won't", "Probability it won't happen: 0.9", yes(0.1)),
];

const ranges: CorpusReply[] = [
  row("between two percentages", `${LAUNCH}\n\nI'd estimate between 30% and 40%.`, yes(0.35)),
  row("hyphen range label", "Probability: 20-30%", yes(0.25)),
  row("en dash range final", `${RATES}\n\nFinal answer: 60–70%`, yes(0.65)),
  row("in the range words", "Somewhere in the 15 to 25% range.", yes(0.2)),
  row("decimal range", "Probability: 0.2–0.3", yes(0.25)),
  row("tilde with margin in brackets", "Final: ~20% (±5%)", yes(0.2)),
  row("plus minus margin", "Probability: 45% ± 10%", yes(0.45)),
  row("forecast range", "My forecast is 10–15%.", yes(0.125)),
  row("percent on both ends", "Final probability: 35%–45%", yes(0.4)),
];

const wordsAndOdds: CorpusReply[] = [
  row("about one in four", `${TREATY}\n\nI'd say about one in four.`, yes(0.25)),
  row("two in three chance", "There's a two in three chance it passes.", yes(2 / 3)),
  row("nine times out of ten", "I think it happens nine times out of ten.", yes(0.9)),
  row("thirty-five percent", "Probability: thirty-five percent", yes(0.35)),
  row("odds 3:1 against", `${MATCH}\n\nMy view: the odds are 3:1 against.`, yes(0.25)),
  row("4 to 1 against", "I make it 4 to 1 against.", yes(0.2)),
  row("3 to 1 in favour", "I'd call it 3 to 1 in favour.", yes(0.75)),
  row("roughly two-thirds", "I put it at roughly two-thirds.", yes(2 / 3)),
  row("coin flip", `${MATCH}\n\nHonestly, it's a coin flip.`, yes(0.5)),
  row("even odds final", "Final answer: even odds.", yes(0.5)),
  row("fifty-fifty", "Fifty-fifty.", yes(0.5)),
  row("one in three", "My forecast: one in three.", yes(1 / 3)),
  row("roughly 1 in 20", "Roughly 1 in 20.", yes(0.05)),
  row("a 1-in-5 chance", "I'd give it a 1-in-5 chance.", yes(0.2)),
  row("three-quarters", "I'd put it at three-quarters.", yes(0.75)),
  row("odds 2:1 in favor", "Odds: 2:1 in favor.", yes(2 / 3)),
  row("a one-third chance", "About a one-third chance.", yes(1 / 3)),
  row("a near certainty", "It's a near certainty.", null),
  row("very likely but not certain", "Very likely, but not certain.", null),
  row("unlikely", `${LAUNCH}\n\nI'd say it's unlikely.`, null),
  row("likely yes", "Likely yes.", null),
  row("seventy percent chance in words", "I see a seventy percent chance of approval.", yes(0.7)),
  row("half", "I'd put it at about half.", yes(0.5)),
];

const otherLanguages: CorpusReply[] = [
  row("German decimal comma", `${GERMAN}\n\nWahrscheinlichkeit: 35,5 %`, yes(0.355)),
  row("Spanish decimal comma", `${SPANISH}\n\nProbabilidad: 12,5%`, yes(0.125)),
  row("German decimal comma small percentage", "Prognose: 0,3 %", yes(0.003)),
  row("German decimal comma fraction", "Prognose: 0,3", yes(0.3)),
  row("French with spaces", `${FRENCH}\n\nProbabilité finale : 62,5 %`, yes(0.625)),
  row("Spanish final probability", `${SPANISH}\n\nProbabilidad final: 30%`, yes(0.3)),
  row("German final forecast", `${GERMAN}\n\nMeine endgültige Prognose: 27 %`, yes(0.27)),
  row("French final forecast", `${FRENCH}\n\nMa prévision finale : 35 %`, yes(0.35)),
  row("Spanish final answer decimal comma", "Respuesta final: 0,42", yes(0.42)),
  row("German final answer", "Endgültige Antwort: 15%", yes(0.15)),
  row("Italian probability", "Probabilità: 22%", yes(0.22)),
  row("Portuguese probability", "Probabilidade: 40%", yes(0.4)),
  row(
    "German with thousands before",
    "Bei der letzten Wahl gab es 1.250 Stimmen Vorsprung.\n\nWahrscheinlichkeit: 12 %",
    yes(0.12),
  ),
];

const jsonBlocks: CorpusReply[] = [
  row(
    "json probability and reasoning",
    `${BILL}\n\n${FENCE}json\n{"probability": 0.27, "reasoning": "Base rate 27%, market 31%."}\n${FENCE}`,
    yes(0.27),
  ),
  row("json prediction percent string", '{"prediction": "35%"}', yes(0.35)),
  row("json nested yes and no", '{"forecast": {"yes": 0.4, "no": 0.6}}', yes(0.4)),
  row(
    "json probability yes beside base rate",
    `${FENCE}\n{"base_rate": 0.3, "probability_yes": 0.15}\n${FENCE}`,
    yes(0.15),
  ),
  row("json answer beside confidence", '{"answer": 0.62, "confidence": 0.8}', yes(0.62)),
  row(
    "json final probability after chain of thought",
    `${RATES}\n\nHere is my answer:\n${FENCE}json\n{\n  "rationale": "Futures say 62%, but 2 of 12 voters is thin.",\n  "final_probability": 0.09\n}\n${FENCE}`,
    yes(0.09),
  ),
  row("json probability above one", '{"probability": 72}', yes(0.72)),
  row(
    "json with a list of factors",
    `${FENCE}json\n{"factors": [{"name": "base rate", "value": 0.39}, {"name": "whip count", "value": 0.2}], "probability": 0.31}\n${FENCE}`,
    yes(0.31),
  ),
];

const markdown: CorpusReply[] = [
  row(
    "factor table then bold probability",
    `| Factor | Evidence | Effect |\n|---|---|---|\n| Base rate | 39% | baseline |\n| Whip count | 58 of 67 | -10% |\n| Timing | 6 weeks | -5% |\n\n**Probability: 33%**`,
    yes(0.33),
  ),
  row(
    "outcome table yes and no",
    `| Outcome | Probability |\n|---|---|\n| Yes | 40% |\n| No | 60% |`,
    yes(0.4),
  ),
  row(
    "bullets with my forecast in bold",
    "- Base rate: 20%\n- Market: 35%\n- Expert survey: 25%\n- **My forecast: 28%**",
    yes(0.28),
  ),
  row("answer header then decimal", `${RATES}\n\n## Answer\n0.45`, yes(0.45)),
  row("probability header then bold", `${TREATY}\n\n## Probability\n\n**61%**`, yes(0.61)),
  row(
    "scenario weights then final",
    `| Scenario | Weight | P(yes) |\n|---|---|---|\n| Deal | 0.4 | 0.7 |\n| No deal | 0.6 | 0.2 |\n\nWeighted: 0.4×0.7 + 0.6×0.2 = 0.40\n\nFinal: 40%`,
    yes(0.4),
  ),
  row("bullets yes and no with dashes", "* YES — 37%\n* NO — 63%", yes(0.37)),
  row(
    "table row final probability",
    `| Item | Value |\n|---|---|\n| Base rate | 39% |\n| Adjustment | -25 points |\n| Final probability | 14% |`,
    yes(0.14),
  ),
  row(
    "headed sections with summary",
    `# Will the treaty be ratified?\n\n## Base rate\n9 of 23 (39%).\n\n## Current signals\nWhip count 58/67.\n\n## Summary\nI estimate the probability at **21%**.`,
    yes(0.21),
  ),
];

const hedgedConclusions: CorpusReply[] = [
  row(
    "think after two reference figures",
    "Given the base rate of 20% and the market at 35%, I think 30% is about right.",
    yes(0.3),
  ),
  row("I'd estimate around", `${MATCH}\n\nI'd estimate around 40%.`, yes(0.4)),
  row("overall maybe a chance", `${LAUNCH}\n\nOverall, there's maybe a 15% chance.`, yes(0.15)),
  row("all things considered decimal", "All things considered, 0.7.", yes(0.7)),
  row("lean towards yes", `${BILL}\n\nSo I'd lean towards yes, roughly 65%.`, yes(0.65)),
  row("call it", "I'm fairly confident it happens — call it 80%.", yes(0.8)),
  row("I'll go with", `${RATES}\n\nI'll go with 0.18.`, yes(0.18)),
  row("estimate about", "The probability is low; I estimate about 5%.", yes(0.05)),
  row("bare decimal", "0.3", yes(0.3)),
  row(
    "long prose with market mention then own estimate",
    `${LAUNCH}\n\nThe market's 55% looks too rich to me given the 36% on-time record. I'd put it at 42%.`,
    yes(0.42),
  ),
  row(
    "my best guess is",
    `${TREATY}\n\nMy best guess is 0.27, mostly from the base rate.`,
    yes(0.27),
  ),
];

const revisions: CorpusReply[] = [
  row(
    "initially thought then revise down",
    "Initially I thought 60%, but given the veto threat I revise down to 45%.",
    yes(0.45),
  ),
  row(
    "probability then wait and update",
    "Probability: 30%\n\nWait — I forgot the court ruling. Updated probability: 20%",
    yes(0.2),
  ),
  row("prior moved by new poll", "My prior was 10%. The new poll moves me to 18%.", yes(0.18)),
  row("draft then final", `${MATCH}\n\nDraft: 25%. Final: 22%.`, yes(0.22)),
  row(
    "on second thought",
    "I'd say 50%. On second thought, given the 6-week window, my final estimate is 38%.",
    yes(0.38),
  ),
];

const ambiguous: CorpusReply[] = [
  row("either way", "It could go either way depending on turnout.", null),
  row("two figures offered", "Probability: 30% or 40%, I can't decide.", null),
  row(
    "refuses to forecast",
    "I cannot give a forecast for this without more information about the committee schedule.",
    null,
  ),
];

export const binaryReplies: CorpusReply[] = [
  ...marked,
  ...markerBeatsOtherNumbers,
  ...statedForNo,
  ...ranges,
  ...wordsAndOdds,
  ...otherLanguages,
  ...jsonBlocks,
  ...markdown,
  ...hedgedConclusions,
  ...revisions,
  ...ambiguous,
];
