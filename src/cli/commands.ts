import { ADMIN_COMMANDS } from "./admin.js";
import type { Command } from "./command.js";
import { DASHBOARD_LINK } from "./dashboard.js";
import { EVAL_COMMANDS } from "./eval-commands.js";
import { NEWS_IMPORT } from "./news-command.js";
import { PAYMENTS_RECONCILE } from "./payments-command.js";
import { QUESTIONS_RESOLVE } from "./questions-command.js";
import { SERVE } from "./serve.js";
import { WORKER } from "./worker.js";

/** Every `sibyl` command, in the order help lists them. A new command is one more entry. */
export const COMMANDS: readonly Command[] = [
  SERVE,
  WORKER,
  ...ADMIN_COMMANDS,
  DASHBOARD_LINK,
  NEWS_IMPORT,
  PAYMENTS_RECONCILE,
  QUESTIONS_RESOLVE,
  ...EVAL_COMMANDS,
];

/** What the first words of a command name besides commands: `orgs` → "organizations". */
export const GROUPS: Readonly<Record<string, string>> = {
  orgs: "organizations",
  credits: "credits of an organization",
  keys: "API keys of an organization",
  dashboard: "the web dashboard",
  news: "the local news archive used by research",
  payments: "machine payments taken for credits",
  eval: "backtests of models on resolved questions",
  questions: "the track record's questions",
};
