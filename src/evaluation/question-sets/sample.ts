import { seededRandom } from "../scoring/bootstrap.js";
import type { QuestionSet } from "../types.js";

/**
 * `--limit N --seed S`: N questions drawn at random, stratified by source. Each source gets its
 * share of N in proportion to its questions (largest remainders first, every source at least
 * one while N allows), and its questions are drawn from a shuffle seeded by S: the same file,
 * N and S draw the same questions. A dataset question keeps all its resolution dates.
 */
export function sampleQuestions(set: QuestionSet, limit: number, seed: number): QuestionSet {
  const bySource = new Map<string, string[]>();
  for (const item of set.items) {
    const question = `${item.source}/${item.questionId}`;
    const list = bySource.get(item.source) ?? [];
    if (!list.includes(question)) list.push(question);
    bySource.set(item.source, list);
  }
  const total = [...bySource.values()].reduce((sum, list) => sum + list.length, 0);
  if (limit >= total) return set;
  const quotas = allocate(
    [...bySource].map(([source, list]) => [source, list.length] as const),
    limit,
  );
  const random = seededRandom(seed);
  const kept = new Set<string>();
  for (const [source, list] of [...bySource].sort(([a], [b]) => a.localeCompare(b))) {
    const shuffled = [...list];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
    }
    for (const question of shuffled.slice(0, quotas.get(source) ?? 0)) kept.add(question);
  }
  const items = set.items.filter((item) => kept.has(`${item.source}/${item.questionId}`));
  const keys = new Set(items.map((item) => item.key));
  return {
    ...set,
    items,
    resolutions: set.resolutions.filter((resolution) => keys.has(resolution.itemKey)),
    skipped: { ...set.skipped, over_limit: set.skipped.over_limit + total - kept.size },
  };
}

/** Splits `limit` over sources in proportion to their sizes, by largest remainder. */
function allocate(
  sizes: readonly (readonly [string, number])[],
  limit: number,
): Map<string, number> {
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  const quotas = new Map<string, number>();
  // With room for every source, each gets one first: a small sample still covers them all.
  const floor = limit >= sizes.length ? 1 : 0;
  let left = limit - floor * sizes.length;
  const shares = sizes.map(([source, size]) => {
    const exact = ((size - floor) * left) / (total - floor * sizes.length || 1);
    return { source, size, whole: Math.min(size - floor, Math.floor(exact)), rest: exact % 1 };
  });
  for (const share of shares) {
    quotas.set(share.source, floor + share.whole);
    left -= share.whole;
  }
  const order = [...shares].sort((a, b) => b.rest - a.rest || a.source.localeCompare(b.source));
  while (left > 0) {
    let placed = false;
    for (const share of order) {
      if (left === 0) break;
      const quota = quotas.get(share.source) ?? 0;
      if (quota < share.size) {
        quotas.set(share.source, quota + 1);
        left -= 1;
        placed = true;
      }
    }
    if (!placed) break;
  }
  return quotas;
}
