/*
 * Counts the characters the string and regular-expression built-ins examine while `run` runs:
 * a measure of work that, unlike time, does not depend on the machine's load. Every regular
 * expression method (test, match, matchAll, replace, split, search) goes through
 * RegExp.prototype.exec once it is replaced, so one wrapper sees them all. A search counts the
 * characters from where it starts to where it matched (or the end); a sticky search, or one
 * anchored at the start ("^…" without the m flag), looks at one position and counts its match. Backtracking inside one match is not counted: the patterns'
 * own bounds ({0,60}) keep it constant per position.
 */
type Counted = (...args: never[]) => unknown;

const STRING_SCANS = [
  "indexOf",
  "lastIndexOf",
  "includes",
  "startsWith",
  "endsWith",
  "toLowerCase",
  "toUpperCase",
  "trim",
  "trimStart",
  "trimEnd",
  "normalize",
  "split",
  "replace",
  "replaceAll",
  "padStart",
  "repeat",
] as const;

/** Whether a pattern starts with "^" and has no alternative outside groups that could not. */
function anchoredAtStart(source: string): boolean {
  if (source.charCodeAt(0) !== 94) return false;
  let depth = 0;
  let inClass = false;
  for (let index = 1; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (code === 92) index++;
    else if (inClass) inClass = code !== 93;
    else if (code === 91) inClass = true;
    else if (code === 40) depth++;
    else if (code === 41) depth--;
    else if (code === 124 && depth === 0) return false;
  }
  return true;
}

export function countWork(run: () => void): number {
  let work = 0;
  const originalExec = RegExp.prototype.exec;
  const originals = new Map<string, Counted>();
  const strings = String.prototype as unknown as Record<string, Counted>;
  RegExp.prototype.exec = function exec(this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = originalExec.call(this, input);
    const text = String(input);
    const anchored = this.sticky || (!this.multiline && anchoredAtStart(this.source));
    if (anchored) work += match === null ? 1 : match[0].length + 1;
    else work += (match === null ? text.length : match.index + match[0].length) - from + 1;
    return match;
  };
  for (const name of STRING_SCANS) {
    const original = strings[name] as Counted;
    originals.set(name, original);
    strings[name] = function counted(this: string, ...args: never[]) {
      work += this.length + 1;
      return original.apply(this, args);
    };
  }
  try {
    run();
  } finally {
    RegExp.prototype.exec = originalExec;
    for (const [name, original] of originals) strings[name] = original;
  }
  return work;
}
