import { parseArgs } from "node:util";
import { isDatabaseOutage } from "../cluster/database-outage.js";
import { ConfigError, loadConfig } from "../config/index.js";
import { ServiceError } from "../errors.js";
import { adminCommands } from "./admin.js";
import { dashboardCommand } from "./dashboard.js";
import { EVAL_OPTIONS, evalCommand } from "./eval.js";
import { newsCommand } from "./news.js";
import { serve } from "./serve.js";
import { runWorker } from "./worker.js";

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout(line: string): void;
  stderr(line: string): void;
}

export class UsageError extends Error {}

export const USAGE = `Usage: sibyl <command> [options]

Commands:
  serve   [--config F] [--port N] [--host H] [--no-worker]   run the API (and a batch worker)
  worker  [--config F]                                       run the batch worker only
  migrate [--config F]                                       bring the database schema up to date
  orgs create --name NAME [--credits-usd X]                  → {"organization_id","api_key","api_key_id"}
  orgs list
  credits add --org ORG_ID --usd X                           → {"organization_id","balance_dollars"}
  keys create --org ORG_ID [--scope admin|inference] [--name N]
              [--expires-at DATE] [--spend-limit-usd X]      → {"api_key","api_key_id"}
  keys list --org ORG_ID
  keys revoke KEY_ID
  dashboard link --org ORG_ID [--minutes N]                  → {"url","expires_at"}: a one-time
                                                             sign-in link (default 15 minutes)
  news import FILE.jsonl                                     → {"imported","duplicates","rejected"}
  eval run --questions FILE [--resolutions FILE] --model ID [--model ID …]
           [--base-url URL] [--api-key KEY] [--research] [--samples K]
           [--aggregate median|mean|logit_mean|trimmed_mean] [--limit N] [--out DIR]
           [--organization NAME] [--knowledge-cutoff ID=DATE] [--poll-interval SECONDS]
           [--no-upload]                                     backtest through the batch API; resumes
                                                             in the same --out (key: SIBYL_API_KEY);
                                                             keeps the report on the server unless
                                                             --no-upload
  eval report --out DIR [--resolutions FILE] [--aggregate A]  score a finished backtest again

Every command takes --config FILE (default ./sibyl.yaml when present). Environment overrides:
SIBYL_CONFIG, SIBYL_PORT, SIBYL_HOST, SIBYL_DATABASE_URL, SIBYL_DATA_DIR.`;

const OPTIONS = {
  config: { type: "string" },
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
  help: { type: "boolean", short: "h" },
  ...EVAL_OPTIONS,
} as const;

export type CliValues = ReturnType<typeof parse>["values"];

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    const [command, ...rest] = positionals;
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (!command) {
      // A mistake, not a request for help: usage goes where errors go.
      io.stderr(USAGE);
      return 2;
    }
    const port = values.port === undefined ? undefined : parsePort(values.port);
    const config = loadConfig({
      file: values.config,
      env: io.env,
      overrides: { port, host: values.host },
    });
    if (command === "serve") return await serve(config, { worker: !values["no-worker"] });
    if (command === "worker") return await runWorker(config, io);
    if (command === "news") return await newsCommand(rest, config, io);
    if (command === "eval") return await evalCommand(rest, values, config, io);
    if (command === "dashboard") return await dashboardCommand(rest, values, config, io);
    return await adminCommands(command, rest, values, config, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr(`sibyl: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    // Facts about the input or the deployment (the database away among them), not bugs: no
    // stack to read.
    if (
      error instanceof ConfigError ||
      error instanceof ServiceError ||
      error instanceof RangeError ||
      (error instanceof Error && (isDatabaseOutage(error) || isDatabaseOutage(error.cause)))
    ) {
      io.stderr(`sibyl: ${error.message}`);
      return 1;
    }
    io.stderr(`sibyl: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return port;
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}
