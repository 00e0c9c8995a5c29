const REDACTED = "[REDACTED]";

/** Query parameter names that suggest a credential; over-matching only hides a harmless value. */
const SECRET_NAME =
  /key|token|secret|passw|pwd|auth|credential|signature|session|cookie|jwt|^sig$/i;

/** A Sibyl API key anywhere, its underscore possibly percent-encoded. */
const API_KEY = /(?<![A-Za-z0-9])sk(?:_|%5f)[A-Za-z0-9_-]{8,}/gi;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return raw;
  }
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const name = pair.split("=", 1)[0] ?? "";
      return SECRET_NAME.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/**
 * A request URL fit for the logs: the values of query parameters named like secrets, and
 * anything shaped like an API key, are replaced.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  const redacted =
    queryStart === -1
      ? url
      : `${url.slice(0, queryStart)}?${redactQuery(url.slice(queryStart + 1))}`;
  return redacted.replace(API_KEY, REDACTED);
}
