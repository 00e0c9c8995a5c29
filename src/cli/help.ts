import type { Command, FlagHelp } from "./command.js";
import { COMMANDS, GROUPS } from "./commands.js";

const CONFIG_FLAG: FlagHelp = {
  flag: "config",
  value: "FILE",
  description:
    "configuration file (default ./sibyl.yaml when present; SIBYL_CONFIG); relative paths in it are read from its folder",
};
const HELP_FLAG: FlagHelp = { flag: "help", description: "show this help" };

export const commandName = (command: Command) => command.words.join(" ");

function flagLabel(help: FlagHelp): string {
  const name = help.flag === "help" ? "-h, --help" : `--${help.flag}`;
  return help.value ? `${name} ${help.value}` : name;
}

/** `orgs create --name NAME [--credits-usd X]` */
function synopsis(command: Command): string {
  const flags = command.flags
    .filter((help) => help.description !== "")
    .map((help) => (help.required ? flagLabel(help) : `[${flagLabel(help)}]`));
  const positionals = (command.positionals ?? []).map((positional) => positional.name);
  return [...command.words, ...positionals, ...flags].join(" ");
}

export const usageLine = (command: Command) => `sibyl ${synopsis(command)} [--config FILE]`;

function table(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

export function commandHelp(command: Command): string {
  const flags = [...command.flags, CONFIG_FLAG, HELP_FLAG];
  const lines = [`Usage: ${usageLine(command)}`, "", `${capitalised(command.summary)}.`];
  if (command.details) lines.push(command.details);
  if (command.positionals?.length) {
    lines.push("", "Arguments:");
    lines.push(...table(command.positionals.map((p) => [p.name, p.description])));
  }
  lines.push("", "Options:");
  lines.push(
    ...table(
      flags.map((help) => [
        flagLabel(help),
        help.required ? `${help.description} (required)` : help.description,
      ]),
    ),
  );
  lines.push("", command.examples.length > 1 ? "Examples:" : "Example:");
  lines.push(...command.examples.map((example) => `  ${example}`));
  return lines.join("\n");
}

export function groupHelp(group: string): string {
  const members = COMMANDS.filter((command) => command.words[0] === group);
  return [
    `Usage: sibyl ${group} <command> [options]`,
    "",
    `Commands for ${GROUPS[group] ?? group}:`,
    ...table(members.map((command) => [commandName(command), command.summary])),
    "",
    `Run "sibyl ${group} <command> --help" for a command's options and an example.`,
  ].join("\n");
}

export function globalHelp(): string {
  return [
    "Usage: sibyl <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.flatMap((command) => [`  ${synopsis(command)}`, `      ${command.summary}`]),
    "",
    "Options for every command:",
    ...table([
      [flagLabel(CONFIG_FLAG), CONFIG_FLAG.description],
      [flagLabel(HELP_FLAG), "show a command's usage, options and an example"],
      ["--version", "print the version"],
    ]),
    "",
    "Environment: SIBYL_CONFIG, SIBYL_PORT, SIBYL_HOST, SIBYL_DATABASE_URL, SIBYL_DATA_DIR.",
    'First steps: "sibyl serve", then "sibyl orgs create --name NAME --credits-usd 5".',
    'Run "sibyl <command> --help" for a command\'s options and an example.',
  ].join("\n");
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
