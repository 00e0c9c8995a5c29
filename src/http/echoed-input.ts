/** Echoed strings keep this many characters. */
const ECHOED_CHARACTERS = 500;
/** Echoed lists and objects keep this many entries. */
const ECHOED_ENTRIES = 20;
/** Values echoed in all, however deep; containers past it are elided. */
const ECHOED_VALUES = 200;

/**
 * A 422 echoes each bad value back, as FastAPI does. A huge one (a 15 MB message, a list of
 * 100,000 numbers) is shortened, saying how much was left out, so the error stays small and
 * cheap to send.
 */
export function echoedInput(value: unknown): unknown {
  let budget = ECHOED_VALUES;
  const echo = (current: unknown): unknown => {
    budget--;
    if (typeof current === "string") return shortened(current);
    if (current === null || typeof current !== "object") return current;
    if (Array.isArray(current)) {
      if (budget <= 0) return `[… ${current.length} items]`;
      const kept = current.slice(0, ECHOED_ENTRIES).map(echo);
      const left = current.length - kept.length;
      return left > 0 ? [...kept, `… ${left} more items`] : kept;
    }
    const keys = Object.keys(current);
    if (budget <= 0) return `{… ${keys.length} keys}`;
    const record = current as Record<string, unknown>;
    const kept = Object.fromEntries(
      keys.slice(0, ECHOED_ENTRIES).map((key) => [key, echo(record[key])]),
    );
    const left = keys.length - ECHOED_ENTRIES;
    return left > 0 ? { ...kept, "…": `${left} more keys` } : kept;
  };
  return echo(value);
}

function shortened(text: string): string {
  if (text.length <= ECHOED_CHARACTERS) return text;
  // Never end between the two halves of a surrogate pair.
  const code = text.charCodeAt(ECHOED_CHARACTERS - 1);
  const cut = code >= 0xd800 && code <= 0xdbff ? ECHOED_CHARACTERS - 1 : ECHOED_CHARACTERS;
  return `${text.slice(0, cut)}… (${text.length - cut} more characters)`;
}
