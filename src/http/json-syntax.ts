/** Where a text stops being JSON (RFC 8259), and why, in words a person can act on. */
export interface JsonSyntaxProblem {
  /** Offset in UTF-16 code units, as JavaScript strings count. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in characters from the start of the line. */
  column: number;
  problem: string;
}

type Expecting = "value" | "first-key" | "key" | "colon" | "after-member" | "after-element";

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const LITERALS = ["true", "false", "null"];

/**
 * The first syntax error of `text`, or null when it is JSON. Iterative, so any nesting depth
 * is scanned without exhausting the stack; only called once JSON.parse has refused a body.
 */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  const scan: Scan = { text, index: 0, closers: [], expecting: "value", finished: false };
  while (true) {
    scan.index = skipSpace(text, scan.index);
    if (scan.index >= text.length) {
      if (scan.finished) return null;
      return located(text, scan.index, endProblem(text, scan.closers, scan.expecting));
    }
    const char = text[scan.index] as string;
    const found = scan.finished
      ? {
          offset: scan.index,
          problem: `unexpected ${describe(char)} after the end of the JSON value`,
        }
      : READ[scan.expecting](scan, char);
    if (found) return located(text, found.offset, found.problem);
  }
}

/** Where a scan stands: what it expects next, inside which open containers. */
interface Scan {
  text: string;
  index: number;
  /** The closers of the containers still open, innermost last. */
  closers: ("}" | "]")[];
  expecting: Expecting;
  /** The top-level value is complete: only whitespace may follow. */
  finished: boolean;
}

interface Problem {
  offset: number;
  problem: string;
}

/** Reads what comes at the scan's index given what it expects; a problem, or null to go on. */
const READ: Record<Expecting, (scan: Scan, char: string) => Problem | null> = {
  value: readValueOrKey,
  "first-key": readValueOrKey,
  key: readValueOrKey,
  colon: readColon,
  "after-member": readAfterItem,
  "after-element": readAfterItem,
};

function readValueOrKey(scan: Scan, char: string): Problem | null {
  const { text, expecting } = scan;
  if (expecting !== "value" && char !== '"') {
    if (expecting === "first-key" && char === "}") return closeContainer(scan);
    return { offset: scan.index, problem: keyProblem(char, expecting) };
  }
  if (expecting === "value" && char === "]" && text[previousNonSpace(text, scan.index)] === "[") {
    return closeContainer(scan);
  }
  if (char === "{" || char === "[") {
    scan.closers.push(char === "{" ? "}" : "]");
    scan.expecting = char === "{" ? "first-key" : "value";
    scan.index++;
    return null;
  }
  const scanned = scanScalar(text, scan.index);
  if (typeof scanned !== "number") return scanned;
  scan.index = scanned;
  if (expecting !== "value") scan.expecting = "colon";
  else afterValue(scan);
  return null;
}

function readColon(scan: Scan, char: string): Problem | null {
  if (char !== ":") {
    return {
      offset: scan.index,
      problem: `expected ':' after the property name, found ${describe(char)}`,
    };
  }
  scan.expecting = "value";
  scan.index++;
  return null;
}

/** After a property value or an array element: a comma, or the container's closer. */
function readAfterItem(scan: Scan, char: string): Problem | null {
  const closer = scan.expecting === "after-member" ? "}" : "]";
  if (char === ",") {
    scan.expecting = scan.expecting === "after-member" ? "key" : "value";
    scan.index++;
    const next = skipSpace(scan.text, scan.index);
    if (scan.expecting === "value" && scan.text[next] === "]") {
      return { offset: next, problem: "a trailing comma before ']' is not allowed in JSON" };
    }
    return null;
  }
  if (char === closer) return closeContainer(scan);
  const container = closer === "}" ? "a property value" : "an array element";
  return {
    offset: scan.index,
    problem: `expected ',' or '${closer}' after ${container}, found ${describe(char)}`,
  };
}

function closeContainer(scan: Scan): null {
  scan.closers.pop();
  scan.index++;
  afterValue(scan);
  return null;
}

/** A value is complete: what the container it is in expects next, or the end. */
function afterValue(scan: Scan): void {
  const open = scan.closers[scan.closers.length - 1];
  scan.finished = open === undefined;
  if (open !== undefined) scan.expecting = open === "}" ? "after-member" : "after-element";
  else scan.expecting = "value";
}

function keyProblem(char: string, expecting: Expecting): string {
  if (char === "}" && expecting === "key")
    return "a trailing comma before '}' is not allowed in JSON";
  if (char === "'") return "property names take double quotes in JSON, not single quotes";
  return `expected a property name in double quotes, found ${describe(char)}`;
}

function endProblem(text: string, closers: readonly string[], expecting: Expecting): string {
  if (text.trim() === "") return "the body is empty";
  const missing =
    closers.length > 0
      ? ` (${closers.length} unclosed: missing ${[...closers]
          .reverse()
          .map((c) => `'${c}'`)
          .join(" ")})`
      : "";
  const wanted =
    expecting === "colon"
      ? "':'"
      : expecting.endsWith("key")
        ? "a property name"
        : expecting === "value"
          ? "a value"
          : "more";
  return `the body ends where ${wanted} was expected${missing}`;
}

/** A string, number or literal starting at `start`: the offset after it, or the problem. */
function scanScalar(text: string, start: number): number | { offset: number; problem: string } {
  const char = text[start] as string;
  if (char === '"') return scanString(text, start);
  if (char === "-" || isDigit(char)) return scanNumber(text, start);
  const literal = LITERALS.find((word) => text.startsWith(word, start));
  if (literal) return start + literal.length;
  if (char === "'")
    return { offset: start, problem: "strings take double quotes in JSON, not single quotes" };
  const word = /^[A-Za-z_]\w*/.exec(text.slice(start, start + 40))?.[0];
  if (word) {
    return {
      offset: start,
      problem: `unexpected word "${word}" where a value was expected (strings need double quotes; literals are true, false and null)`,
    };
  }
  return { offset: start, problem: `unexpected ${describe(char)} where a value was expected` };
}

function scanString(text: string, start: number): number | { offset: number; problem: string } {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') return index + 1;
    if (char.charCodeAt(0) < 0x20) {
      return {
        offset: index,
        problem: `${describe(char)} inside a string must be escaped (as \\n, \\t or \\u00XX)`,
      };
    }
    if (char === "\\") {
      const escaped = text[index + 1];
      if (escaped === "u") {
        if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(index + 2, index + 6))) {
          return { offset: index, problem: "\\u in a string needs four hexadecimal digits" };
        }
        index += 6;
        continue;
      }
      if (escaped === undefined || !ESCAPES.has(escaped)) {
        const what = escaped === undefined ? "the end of the body" : `"\\${escaped}"`;
        return {
          offset: index,
          problem: `${what} is not a JSON escape (use \\\\ for a backslash)`,
        };
      }
      index += 2;
      continue;
    }
    index++;
  }
  return {
    offset: text.length,
    problem: `the string that starts at offset ${start} is never closed with '"'`,
  };
}

function scanNumber(text: string, start: number): number | { offset: number; problem: string } {
  let index = start;
  if (text[index] === "-") index++;
  if (text[index] === "0") {
    index++;
    if (isDigit(text[index]))
      return { offset: index, problem: "numbers cannot have leading zeros in JSON" };
  } else if (isDigit(text[index])) {
    while (isDigit(text[index])) index++;
  } else {
    return { offset: index, problem: "a '-' must be followed by digits" };
  }
  if (text[index] === ".") {
    index++;
    if (!isDigit(text[index]))
      return { offset: index, problem: "a decimal point must be followed by digits" };
    while (isDigit(text[index])) index++;
  }
  if (text[index] === "e" || text[index] === "E") {
    index++;
    if (text[index] === "+" || text[index] === "-") index++;
    if (!isDigit(text[index])) return { offset: index, problem: "an exponent must have digits" };
    while (isDigit(text[index])) index++;
  }
  return index;
}

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && WHITESPACE.has(text[at] as string)) at++;
  return at;
}

function previousNonSpace(text: string, index: number): number {
  let at = index - 1;
  while (at >= 0 && WHITESPACE.has(text[at] as string)) at--;
  return at;
}

function describe(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "\n") return "a line break";
  if (char === "\t") return "a tab";
  if (code < 0x20 || code === 0x7f)
    return `the control character U+${code.toString(16).padStart(4, "0").toUpperCase()}`;
  return `'${char}'`;
}

function located(text: string, offset: number, problem: string): JsonSyntaxProblem {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === "\n") {
      line++;
      lineStart = index + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1, problem };
}
