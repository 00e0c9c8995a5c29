import type { Command } from "./command.js";
import { newsImport } from "./news.js";

export const NEWS_IMPORT: Command = {
  words: ["news", "import"],
  summary: "fill the local news archive that research searches (JSON Lines, RSS, Atom or RDF)",
  details:
    "Rejected entries and progress go to stderr; stdout gets one JSON summary. Articles already in the archive count as duplicates. Exits 1 when nothing was imported and something was rejected.",
  flags: [
    {
      flag: "first-seen-from-published",
      description:
        "entries without first_seen_at count as first seen at their published date instead of now",
    },
  ],
  positionals: [
    {
      name: "FILE",
      description:
        "the articles to import: JSON Lines, or an RSS, Atom or RDF feed (docs/research.md)",
    },
  ],
  examples: ['sibyl news import articles.jsonl   → {"imported","duplicates","rejected"}'],
  usesDatabase: true,
  run: ({ args, values, config, io }) =>
    newsImport(
      args[0] as string,
      { fromPublished: values["first-seen-from-published"] === true },
      config,
      io,
    ),
};
