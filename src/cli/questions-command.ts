import { type Command, UsageError } from "./command.js";
import { resolveQuestionsFile } from "./questions.js";

export const QUESTIONS_RESOLVE: Command = {
  words: ["questions", "resolve"],
  summary: "resolve an organization's questions from a file and score their forecasts",
  details:
    'Takes Sibyl\'s JSON Lines (one {"question_id","outcome","resolved_at"} or {"question_id","annulled":true} a line) or a ForecastBench resolution set, whose entries resolve the questions named source/id@resolution_date or source/id (docs/track-record.md). Refusals and skipped entries go to stderr; stdout gets one JSON summary. Exits 1 when any resolution was refused.',
  flags: [
    {
      flag: "org",
      value: "ORG_ID",
      description: "the organization whose questions these are",
      required: true,
    },
    {
      flag: "force",
      description: "replace earlier resolutions that differ (kept in each question's history)",
    },
  ],
  positionals: [
    { name: "FILE", description: "Sibyl JSON Lines or a ForecastBench resolution set (.json)" },
  ],
  examples: [
    'sibyl questions resolve resolutions.jsonl --org org_…   → {"format","resolved","unchanged","unknown","refused","skipped"}',
  ],
  usesDatabase: true,
  run: ({ args, values, config, io }) => {
    const [file, ...extra] = args;
    if (!file) throw new UsageError("questions resolve needs a FILE");
    if (extra.length > 0)
      throw new UsageError(`questions resolve takes one FILE, got: ${args.join(" ")}`);
    if (!values.org) throw new UsageError("questions resolve needs --org ORG_ID");
    return resolveQuestionsFile(
      file,
      { organizationId: values.org, force: values.force === true },
      config,
      io,
    );
  },
};
