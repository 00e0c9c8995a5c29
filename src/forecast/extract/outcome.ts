/**
 * What a search of some text found: an answer; figures that were stated but are not a valid
 * answer (the caller must not look further); or nothing at all.
 */
export type Outcome<T> =
  | { kind: "found"; answer: T; rule: string }
  | { kind: "invalid"; rule: string }
  | { kind: "none" };

/**
 * One way of finding answer candidates, in the order written. A decisive tier is explicit
 * enough that its last candidate is the answer, valid or not; other tiers are loose readings
 * of prose, where the last candidate that validates wins.
 */
export interface Tier<C> {
  /** The name of the reading, reported with the answer it produced. */
  rule: string;
  decisive: boolean;
  find: () => C[];
}

/** Tries the tiers in order of explicitness; the first that yields an answer decides. */
export function resolveTiers<C, A>(
  tiers: Tier<C>[],
  validate: (candidate: C) => A | null,
): Outcome<A> {
  let sawCandidate: string | null = null;
  for (const tier of tiers) {
    const candidates = tier.find();
    if (candidates.length === 0) continue;
    sawCandidate ??= tier.rule;
    const ordered = tier.decisive ? candidates.slice(-1) : [...candidates].reverse();
    for (const candidate of ordered) {
      const answer = validate(candidate);
      if (answer !== null) return { kind: "found", answer, rule: tier.rule };
    }
    if (tier.decisive) return { kind: "invalid", rule: tier.rule };
  }
  return sawCandidate === null ? { kind: "none" } : { kind: "invalid", rule: sawCandidate };
}

export function mapOutcome<T, U>(outcome: Outcome<T>, map: (answer: T) => U): Outcome<U> {
  return outcome.kind === "found"
    ? { kind: "found", answer: map(outcome.answer), rule: outcome.rule }
    : outcome;
}
