import { parseArgs } from "node:util";
import { nearest } from "../util/nearest.js";
import { type CliValues, type Command, FLAGS, type FlagName, UsageError } from "./command.js";
import { COMMANDS } from "./commands.js";
import { commandHelp, commandName, globalHelp, groupHelp } from "./help.js";

/** What the command line asks for. */
export type Parsed =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "missing-command" }
  | { kind: "run"; command: Command; values: CliValues; args: string[] };

/** Flags every command takes. */
const GLOBAL_FLAGS: readonly FlagName[] = ["config", "help"];

export function parseCommandLine(argv: readonly string[]): Parsed {
  const { values, positionals, tokens } = parseArgs({
    args: joinNegativeValues(argv),
    options: FLAGS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const known = values as CliValues;
  // `sibyl help orgs create` reads as `sibyl orgs create --help`.
  if (positionals[0] === "help") {
    positionals.shift();
    known.help = true;
  }
  const command = findCommand(positionals);
  if (command === null) {
    checkOptionsWithoutCommand(tokens);
    if (known.version) return { kind: "version" };
    return known.help ? { kind: "help", text: globalHelp() } : { kind: "missing-command" };
  }
  if (typeof command === "string") return { kind: "help", text: groupHelp(command) };
  if (known.help) return { kind: "help", text: commandHelp(command) };
  checkOptions(command, tokens);
  const args = positionals.slice(command.words.length);
  checkPositionals(command, args);
  return { kind: "run", command, values: known, args };
}

/**
 * `--credits-usd -5` means the value -5, which parseArgs would read as an option: joined as
 * `--credits-usd=-5`, it reaches the command, whose check says what is wrong with it.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    const next = argv[index + 1];
    const flag = FLAGS[token.slice(2) as FlagName];
    if (token.startsWith("--") && flag?.type === "string" && next && /^-\.?\d/.test(next)) {
      joined.push(`${token}=${next}`);
      index++;
    } else {
      joined.push(token);
    }
  }
  return joined;
}

/** The command the leading words name; a group's name when they name only a group; null for none. */
function findCommand(words: readonly string[]): Command | string | null {
  const [first, second] = words;
  if (first === undefined) return null;
  const matches = (command: Command) => command.words.every((word, index) => words[index] === word);
  const found = COMMANDS.find(matches);
  if (found) return found;
  const group = COMMANDS.filter(
    (command) => command.words.length > 1 && command.words[0] === first,
  );
  if (group.length > 0 && second === undefined) return first;
  if (group.length > 0) {
    const names = group.map((command) => command.words[1] as string);
    throw new UsageError(
      `unknown command "${first} ${second}"${suggestion(second as string, names, `${first} `)}: the ${first} commands are ${names.join(", ")}.`,
      first,
    );
  }
  const firstWords = [...new Set(COMMANDS.map((command) => command.words[0] as string))];
  throw new UsageError(`unknown command "${first}"${suggestion(first, firstWords, "")}.`, "");
}

function suggestion(word: string, candidates: readonly string[], prefix: string): string {
  const [best] = nearest(word, candidates);
  return best === undefined ? "" : ` (did you mean "${prefix}${best}"?)`;
}

type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

function checkOptions(command: Command, tokens: readonly Token[]): void {
  const name = commandName(command);
  const allowed = new Set<string>([...command.flags.map((help) => help.flag), ...GLOBAL_FLAGS]);
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const flag = token.rawName;
    if (!allowed.has(token.name)) {
      const options = [...allowed].map((option) => `--${option}`, name);
      const hint = suggestion(`--${token.name}`, options, "");
      throw new UsageError(
        `${name} has no option ${flag}${hint}; its options are ${options.join(", ")}.`,
        name,
      );
    }
    const spec = FLAGS[token.name as FlagName];
    const placeholder = command.flags.find((help) => help.flag === token.name)?.value ?? "VALUE";
    if (spec.type === "string" && token.value === undefined) {
      throw new UsageError(`${flag} needs a value, as in ${flag} ${placeholder}.`, name);
    }
    if (spec.type === "boolean" && token.value !== undefined) {
      throw new UsageError(`${flag} is a switch and takes no value, got "${token.value}".`, name);
    }
    if (!("multiple" in spec) && seen.has(token.name)) {
      throw new UsageError(`${flag} is given more than once; give it once.`, name);
    }
    seen.add(token.name);
  }
}

/** `sibyl --verison` is a mistake to name, not a request for the whole usage. */
function checkOptionsWithoutCommand(tokens: readonly Token[]): void {
  const allowed = ["--help", "--version", "--config"];
  for (const token of tokens) {
    if (token.kind !== "option" || allowed.includes(`--${token.name}`)) continue;
    const hint = suggestion(`--${token.name}`, allowed, "");
    throw new UsageError(
      `unknown option ${token.rawName}${hint}: without a command, sibyl takes only --help, --version and --config.`,
      "",
    );
  }
}

function checkPositionals(command: Command, args: readonly string[]): void {
  const expected = command.positionals ?? [];
  const name = commandName(command);
  const missing = expected[args.length];
  if (missing) {
    throw new UsageError(`${name} needs ${missing.name}: ${missing.description}.`, name);
  }
  if (args.length > expected.length) {
    const extra = args.slice(expected.length).map((arg) => `"${arg}"`);
    throw new UsageError(
      `${name} takes ${expected.length === 0 ? "no arguments besides its options" : `only ${expected.map((p) => p.name).join(" ")}`}, but got ${extra.join(" ")} as well.`,
      name,
    );
  }
}
