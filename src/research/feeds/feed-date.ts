import { parseInstant } from "../archive/instant.js";

/** An RFC 822 / 1123 date as RSS writes it, ending in an explicit zone. */
const RFC_822 =
  /^(?:[A-Za-z]{3},?\s+)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?\s+(?:GMT|UTC?|Z|[ECMP][SD]T|[+-]\d{4})$/i;

/**
 * Unix milliseconds of a feed item's date (ISO 8601 in Atom and Dublin Core, RFC 822 in RSS);
 * null when it is absent or unreadable. A date without a zone would be read in the server's own
 * time zone by `Date.parse`, so only RFC 822 dates that name their zone are read.
 */
export function parseFeedDate(text: string | undefined): number | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  const iso = parseInstant(trimmed);
  if (iso !== null) return iso;
  if (!RFC_822.test(trimmed)) return null;
  const parsed = Date.parse(trimmed);
  return Number.isNaN(parsed) ? null : parsed;
}
