/** One range of an `Accept-Payment` header: `method/intent;q=…`, either side possibly `*`. */
interface PaymentRange {
  method: string;
  intent: string;
  q: number;
}

const RANGE = /^([a-z0-9:_-]+|\*)\s*\/\s*([a-z0-9:_-]+|\*)((?:\s*;\s*[^;]*)*)$/i;
const WEIGHT = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;
/** More ranges than any client needs: a longer header is read as absent. */
const MAX_RANGES = 64;

/** The ranges of the header; null when it is absent or malformed (then ignored, as allowed). */
export function parseAcceptPayment(header: string | undefined): PaymentRange[] | null {
  if (header === undefined || header.length > 4096) return null;
  const parts = header
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (parts.length === 0 || parts.length > MAX_RANGES) return null;
  const ranges: PaymentRange[] = [];
  for (const part of parts) {
    const match = RANGE.exec(part);
    if (!match) return null;
    let q = 1;
    for (const param of (match[3] ?? "").split(";").slice(1)) {
      const weight = WEIGHT.exec(param.trim());
      if (weight) q = Number(weight[1]);
      else if (/^q\s*=/i.test(param.trim())) return null;
    }
    ranges.push({
      method: (match[1] ?? "").toLowerCase(),
      intent: (match[2] ?? "").toLowerCase(),
      q,
    });
  }
  return ranges;
}

/**
 * The offers a client accepts, best first, as the core draft asks: only those matching a range
 * with q > 0, by descending q of their most specific matching range, the server's order kept
 * among equals. When the header is absent, malformed or matches nothing, every offer in the
 * server's order.
 */
export function rankOffers<T extends { method: string; intent: string }>(
  offers: T[],
  header: string | undefined,
): T[] {
  const ranges = parseAcceptPayment(header);
  if (!ranges) return offers;
  const weighted = offers
    .map((offer, index) => ({ offer, index, q: weightOf(offer, ranges) }))
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return weighted.length === 0 ? offers : weighted.map((entry) => entry.offer);
}

function weightOf(offer: { method: string; intent: string }, ranges: PaymentRange[]): number {
  let best: { specificity: number; q: number } | null = null;
  for (const range of ranges) {
    const methodMatches = range.method === "*" || range.method === offer.method;
    const intentMatches = range.intent === "*" || range.intent === offer.intent;
    if (!methodMatches || !intentMatches) continue;
    const specificity = Number(range.method !== "*") + Number(range.intent !== "*");
    if (
      !best ||
      specificity > best.specificity ||
      (specificity === best.specificity && range.q > best.q)
    ) {
      best = { specificity, q: range.q };
    }
  }
  return best?.q ?? 0;
}
