import type { Command, FlagHelp } from "./command.js";
import { evalCommand } from "./eval.js";
import { EVAL_OPTIONS } from "./eval-options.js";

const DESCRIBED: readonly FlagHelp[] = [
  { flag: "questions", value: "FILE", description: "questions, JSON Lines", required: true },
  { flag: "model", value: "ID", description: "a model to run; repeat for several", required: true },
  { flag: "resolutions", value: "FILE", description: "outcomes, when not in the questions file" },
  { flag: "base-url", value: "URL", description: "the Sibyl server (default server.public_url)" },
  { flag: "api-key", value: "KEY", description: "an admin key (default SIBYL_API_KEY)" },
  { flag: "research", description: "let each forecast research (costs apply)" },
  { flag: "samples", value: "K", description: "forecasts per question and model" },
  { flag: "aggregate", value: "A", description: "median, mean, logit_mean or trimmed_mean" },
  { flag: "limit", value: "N", description: "a sample of N questions, stratified by source" },
  { flag: "seed", value: "S", description: "the --limit sample's seed (default 0)" },
  { flag: "reference", value: "DIR", description: "ForecastBench forecast files to adjust by" },
  {
    flag: "reference-models",
    value: "FILE",
    description: "release dates and tool use of --reference's LLM runs",
  },
  { flag: "leaderboard", value: "L", description: "tournament (default) or baseline" },
  { flag: "out", value: "DIR", description: "where results go; run again to resume" },
  { flag: "organization", value: "NAME", description: "organization named in the report" },
  { flag: "knowledge-cutoff", value: "ID=DATE", description: "a model's training cutoff" },
  { flag: "poll-interval", value: "SECONDS", description: "how often to check the batch" },
  { flag: "no-upload", description: "keep the report off the server" },
  {
    flag: "calibrate",
    description: "fit a calibration map on half the questions (split by --seed), score the rest",
  },
];

/** Every eval flag, the described ones first, so a new one is accepted before it is described. */
const EVAL_RUN_FLAGS: readonly FlagHelp[] = [
  ...DESCRIBED,
  ...Object.keys(EVAL_OPTIONS)
    .filter((flag) => !DESCRIBED.some((described) => described.flag === flag))
    .map((flag) => ({ flag: flag as FlagHelp["flag"], value: "VALUE", description: "" })),
];

const described = (...flags: string[]) => DESCRIBED.filter((help) => flags.includes(help.flag));

export const EVAL_COMMANDS: readonly Command[] = [
  {
    words: ["eval", "run"],
    summary: "backtest models on resolved questions through the batch API",
    details:
      "Resumes in the same --out. Needs a running server and an admin key (docs/evaluation.md).",
    flags: EVAL_RUN_FLAGS,
    examples: [
      "SIBYL_API_KEY=sk-… sibyl eval run --questions examples/questions.jsonl --model sibyl-baseline",
    ],
    usesDatabase: false,
    run: ({ values, config, io }) => evalCommand(["run"], values, config, io),
  },
  {
    words: ["eval", "report"],
    summary: "score a finished backtest again",
    flags: [
      { flag: "out", value: "DIR", description: "the backtest's folder", required: true },
      ...described(
        "resolutions",
        "aggregate",
        "organization",
        "reference",
        "reference-models",
        "leaderboard",
        "calibrate",
      ),
    ],
    examples: [
      "sibyl eval report --out sibyl-eval-questions --aggregate mean",
      "sibyl eval report --out backtest-0705 --reference forecast_sets/2026-07-05",
    ],
    usesDatabase: false,
    run: ({ values, config, io }) => evalCommand(["report"], values, config, io),
  },
];
