/**
 * The key two results share when they are the same page: scheme and host in lower case, no
 * default port, no fragment, no trailing slash, no tracking parameters, the rest in order.
 * Text that is not a URL is its own key.
 */

const TRACKING_PARAMETERS = new Set([
  "fbclid",
  "gclid",
  "dclid",
  "msclkid",
  "mc_cid",
  "mc_eid",
  "igshid",
  "yclid",
  "ref",
  "ref_src",
  "cmpid",
  "ocid",
  "smid",
]);

export function urlKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return url.trim();
  }
  for (const name of [...parsed.searchParams.keys()]) {
    const lower = name.toLowerCase();
    if (lower.startsWith("utm_") || TRACKING_PARAMETERS.has(lower)) {
      parsed.searchParams.delete(name);
    }
  }
  parsed.searchParams.sort();
  parsed.hash = "";
  // URL already lower-cases the scheme and host and drops default ports.
  const scheme = parsed.protocol === "http:" ? "https:" : parsed.protocol;
  const path = parsed.pathname.replace(/\/+$/, "");
  return `${scheme}//${parsed.host}${path}${parsed.search}`;
}
