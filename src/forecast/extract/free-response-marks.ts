import { findJsonObjects, normalizeKey, withNested } from "./json-objects.js";
import { holdsAny, matchesHolding, matchesOf } from "./matches.js";

const ANSWER_KEYS = ["answer", "finalanswer", "prediction", "finalprediction", "forecast"];

// "Answer: Spain", "My pick: Spain", "**Final answer:** Spain", "- Prediction: Spain", "My final answer is Spain",
// "Antwort: Spanien", "Réponse finale : Espagne"; the label starts its line.
const ANSWER_LINE =
  /^[ \t>#*_-]*(?:(?:(?:my\s+)?(?:final\s+)?(?:answer|prediction|pick)|(?:endgültige\s+)?antwort|(?:respuesta|resposta|risposta)(?:\s+final[e]?)?|r[ée]ponse(?:\s+finale)?)(?:\s+is)?\s*(?:\*\*|__)?\s*[:：]|(?:my\s+)?final\s+answer\s+is\b)\s*(?:\*\*|__)?[ \t]*([^\n]*)$/gim;
// "Update: on reflection … Final answer: The Salt Road": a final answer after a sentence ends.
const FINAL_IN_LINE =
  /(?<=[.!?;][ \t]{1,3})(?:my\s+)?final\s+answer(?:\s+is)?\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?[ \t]*([^\n]+)$/gim;
const COLONS = [":", "："];
// "## Final Answer" on its own line, the answer on the next.
const ANSWER_HEADING = /^[ \t]*#{1,6}[ \t]*(?:final\s+)?answer[ \t]*:?[ \t]*$/gim;
const BOXED = /\\boxed\{((?:[^{}\n]|\{[^{}\n]*\})*)\}/g;

/** A marked answer and where it was written, so the latest of several kinds wins. */
interface Mark {
  text: string;
  index: number;
}

function nextLine(text: string, from: number): string {
  return text.slice(from).match(/^\s*([^\n]*)/)?.[1] ?? "";
}

function lineMarks(text: string): Mark[] {
  const lines = matchesOf(text, ANSWER_LINE).map((match) => ({
    text:
      (match[1] ?? "").replace(/[*_\s]/g, "") === ""
        ? nextLine(text, match.index + match[0].length)
        : (match[1] ?? ""),
    index: match.index,
  }));
  const headings = matchesHolding(text, ANSWER_HEADING, "#").map((match) => ({
    text: nextLine(text, match.index + match[0].length),
    index: match.index,
  }));
  // Every match holds a colon: the search for one is many times faster than the pattern's
  // look behind at every character.
  const inLine = (holdsAny(text, COLONS) ? matchesOf(text, FINAL_IN_LINE) : []).map((match) => ({
    text: match[1] ?? "",
    index: match.index,
  }));
  return [...lines, ...headings, ...inLine];
}

function boxedMarks(text: string): Mark[] {
  return matchesOf(text, BOXED).map((match) => ({ text: match[1] ?? "", index: match.index }));
}

/** A JSON answer counts as written where its key last appears. */
function jsonMark(text: string): Mark[] {
  const objects = findJsonObjects(text);
  for (const object of objects.reverse()) {
    for (const inner of withNested(object)) {
      for (const [key, value] of Object.entries(inner)) {
        if (ANSWER_KEYS.includes(normalizeKey(key)) && typeof value === "string") {
          return [{ text: value, index: text.lastIndexOf(key) }];
        }
      }
    }
  }
  return [];
}

/**
 * The text of the last explicitly marked answer in `text` ("Answer: …", `\boxed{…}`, a JSON
 * "answer" or "prediction"), or null when none is marked.
 */
export function markedAnswer(text: string): string | null {
  const marks = [...lineMarks(text), ...boxedMarks(text), ...jsonMark(text)];
  const last = marks.reduce<Mark | null>(
    (latest, mark) => (latest === null || mark.index >= latest.index ? mark : latest),
    null,
  );
  return last === null ? null : last.text;
}

/**
 * The answer without its wrappers: emphasis, `\boxed{}` and `\text{}`, quotes, and a closing
 * bracketed chance ("Spain (about 40%)").
 */
export function unwrapAnswer(text: string): string {
  let answer = text.trim();
  for (let pass = 0; pass < 3; pass++) {
    answer = answer
      .replace(/[ \t]*\([^()\n]*%[^()\n]*\)$/, "")
      .replace(/^\\boxed\{([^\n]*)\}$/, "$1")
      .replace(/\\text(?:bf)?\{([^{}]*)\}/g, "$1")
      .replace(/^(\*\*|__|\*|_|`)([^\n]*?)\1(?=\s*[.!]?$)/, "$2")
      .replace(/\*\*|__/g, "")
      .replace(/^["“'‘]([^\n]*)["”'’]$/, "$1")
      .trim();
  }
  return answer;
}

// What a model writes after the answer to justify it: a spaced dash, a semicolon, a bracket, a
// clause of reason, a colon or a spaced hyphen before lower-case words, or a new sentence.
// Unspaced hyphens ("Guinea-Bissau"), "and" ("Trinidad and Tobago"), initials ("J. D.
// Vance") and titles ("Rep. Okafor", "Gen. Ruiz") belong to names.
const TITLE =
  "Rep|Reps|Sen|Sens|Gov|Pres|Prof|Gen|Col|Capt|Cmdr|Adm|Maj|Sgt|Lt|Hon|Rev|Mrs|Mr|Ms|Dr|Jr|Sr|St|Mt|Ft|Inc|Corp|Ltd|Co|Bros|vs|No";
const REASON_AFTER = new RegExp(
  String.raw`\s+[—–]\s|\s+-\s|;|\s*\(|,?\s+(?:because|since|as|due to|given|porque|weil|car|parce que)\s|:\s+(?=\p{Ll})|(?<=\p{L}{3}|\p{Lu}{2}|\d)(?<!\b(?:${TITLE}))\.\s+(?=\p{Lu})`,
  "u",
);
// "The answer is Spain", "I predict Spain": the marked answer restated as a sentence.
const ANSWER_SENTENCE = /^(?:the|my)\s+(?:final\s+)?answer\s+is\s+|^I\s+predict\s+/i;

/** The answer without the reasons written after it on its line. */
export function withoutReason(answer: string): string {
  const cut = REASON_AFTER.exec(answer);
  const kept = (cut === null ? answer : answer.slice(0, cut.index)).replace(ANSWER_SENTENCE, "");
  return kept.trim() === "" ? answer : kept.trim();
}

// A name ends a labelled line with a full stop ("Answer: Brisbane.", "Rep. Okafor."); a sentence
// keeps its own.
const NAME_WITH_STOP = /^(?:\S+[ \t]+){0,3}[^.\s]+\.$/;

/** A short marked answer without the full stop that closes its line. */
export function withoutClosingStop(answer: string): string {
  return NAME_WITH_STOP.test(answer) ? answer.slice(0, -1) : answer;
}
