import type { Config } from "../config/index.js";
import { EVAL_OPTIONS } from "./eval-options.js";

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout(line: string): void;
  stderr(line: string): void;
}

/** A mistake in the command line: exit 2 with the message and where to read the usage. */
export class UsageError extends Error {
  /** The command whose --help explains the mistake, e.g. "orgs create"; the command run if absent. */
  readonly helpFor: string | undefined;

  constructor(message: string, helpFor?: string) {
    super(message);
    this.helpFor = helpFor;
  }
}

/** Every flag any command takes, as node's parseArgs reads it. */
export const FLAGS = {
  config: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  "no-worker": { type: "boolean" },
  name: { type: "string" },
  "credits-usd": { type: "string" },
  org: { type: "string" },
  usd: { type: "string" },
  scope: { type: "string" },
  "expires-at": { type: "string" },
  "spend-limit-usd": { type: "string" },
  minutes: { type: "string" },
  "first-seen-from-published": { type: "boolean" },
  since: { type: "string" },
  force: { type: "boolean" },
  ...EVAL_OPTIONS,
} as const;

export type FlagName = keyof typeof FLAGS;

type FlagValue<F> = F extends { multiple: true }
  ? string[]
  : F extends { type: "boolean" }
    ? boolean
    : string;

export type CliValues = { [K in FlagName]?: FlagValue<(typeof FLAGS)[K]> };

export interface FlagHelp {
  flag: FlagName;
  /** The placeholder of its value, e.g. NAME; absent for a switch. */
  value?: string;
  description: string;
  required?: boolean;
}

export interface CommandContext {
  values: CliValues;
  /** Positional arguments after the command's words. */
  args: string[];
  config: Config;
  /** The configuration file in use, as given; null for the built-in defaults. */
  configFile: string | null;
  io: CliIo;
  /** Called by a command that runs until stopped once it has started. */
  started(): void;
}

export interface Command {
  /** The words that name it: ["orgs", "create"]. */
  words: readonly string[];
  summary: string;
  /** Longer explanation shown by --help. */
  details?: string;
  flags: readonly FlagHelp[];
  /** Positional arguments, all required, in order. */
  positionals?: readonly { name: string; description: string }[];
  /** Command lines shown under Example, each with what it prints. */
  examples: readonly string[];
  /** It opens the configured database (and creates it when absent). */
  usesDatabase: boolean;
  /** It serves until a signal stops it (serve, worker). */
  runsUntilStopped?: boolean;
  run(context: CommandContext): Promise<number>;
}

/** A fact about the deployment that stops a command (a port in use): one line, exit 1. */
export class CommandFailure extends Error {}
