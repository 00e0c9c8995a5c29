/*
 * The forecast parsers (options, rule-based classification, answer extraction) are regular
 * expressions whose cost grows with the text, up to ~0.3 s a megabyte on adversarial shapes, and
 * prompts may be 16 MB. They read bounded windows instead, so no request holds the event loop
 * for long: real questions and their options fit in the window, and answers sit at the end.
 */

/** Characters of a question the parsers read: its beginning and its end, this much of each. */
const QUESTION_EDGE_CHARACTERS = 32 * 1024;

/** Characters at the end of a reply the answer is read from. */
const ANSWER_WINDOW_CHARACTERS = 64 * 1024;

/** The question as the parsers see it: whole when short, else its beginning and its end. */
export function questionWindow(question: string): string {
  if (question.length <= 2 * QUESTION_EDGE_CHARACTERS) return question;
  return `${question.slice(0, QUESTION_EDGE_CHARACTERS)}\n…\n${question.slice(-QUESTION_EDGE_CHARACTERS)}`;
}

/** The end of a reply, where a final answer is written. */
export function answerWindow(reply: string): string {
  return reply.length <= ANSWER_WINDOW_CHARACTERS ? reply : reply.slice(-ANSWER_WINDOW_CHARACTERS);
}
