import { existsSync } from "node:fs";
import { isDatabaseOutage } from "../cluster/database-outage.js";
import { ConfigError, loadConfig } from "../config/index.js";
import { DatabaseOpenError } from "../db/open-error.js";
import { ServiceError } from "../errors.js";
import { type CliIo, CommandFailure, UsageError } from "./command.js";
import { globalHelp } from "./help.js";
import { missingSqliteFile, newDatabaseNotice } from "./new-database.js";
import { parseCommandLine } from "./parse.js";
import { packageVersion } from "./version.js";

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let helpFor = "";
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === "version") {
      io.stdout(`sibyl ${packageVersion()}`);
      return 0;
    }
    if (parsed.kind === "help") {
      io.stdout(parsed.text);
      return 0;
    }
    if (parsed.kind === "missing-command") {
      // A mistake, not a request for help: usage goes where errors go.
      io.stderr(globalHelp());
      return 2;
    }
    const { command, values, args } = parsed;
    helpFor = command.words.join(" ");
    const configFile = values.config ?? io.env.SIBYL_CONFIG ?? null;
    const config = loadConfig({
      file: values.config,
      env: io.env,
      overrides: {
        port: values.port === undefined ? undefined : parsePort(values.port),
        host: values.host,
      },
    });
    const missing = command.usesDatabase ? missingSqliteFile(config) : null;
    const announce = () => {
      if (missing !== null && existsSync(missing))
        io.stderr(newDatabaseNotice(missing, configFile));
    };
    // A server says so once it has started; a short command once it is done.
    const context = { values, args, config, configFile, io, started: announce };
    try {
      return await command.run(context);
    } finally {
      if (!command.runsUntilStopped) announce();
    }
  } catch (error) {
    return reportFailure(error, helpFor, io);
  }
}

/** Says what went wrong and returns the exit code: 2 for a usage mistake, else 1. */
function reportFailure(error: unknown, helpFor: string, io: CliIo): number {
  if (error instanceof UsageError) {
    const target = error.helpFor ?? helpFor;
    io.stderr(`sibyl: ${error.message}`);
    io.stderr(`Run "sibyl${target ? ` ${target}` : ""} --help" for its usage and an example.`);
    return 2;
  }
  // Facts about the input or the deployment (the database away among them), not bugs: no
  // stack to read.
  if (
    error instanceof ConfigError ||
    error instanceof ServiceError ||
    error instanceof CommandFailure ||
    error instanceof DatabaseOpenError ||
    error instanceof RangeError ||
    (error instanceof Error && (isDatabaseOutage(error) || isDatabaseOutage(error.cause)))
  ) {
    io.stderr(`sibyl: ${error.message}`);
    return 1;
  }
  io.stderr(`sibyl: ${(error as Error).stack ?? String(error)}`);
  return 1;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, not "${text}".`);
  }
  return port;
}
