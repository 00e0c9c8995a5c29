/** How many requests were sent to each route, for the summary a run ends with. */
export class RequestTally {
  private readonly counts = new Map<string, number>();

  count(route: string): void {
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
  }

  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }

  of(route: string): number {
    return this.counts.get(route) ?? 0;
  }

  /** One line: the total, then every route with its count, busiest first. */
  summary(): string {
    const routes = [...this.counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([route, count]) => `${route} ${count}`)
      .join(", ");
    return `reliability fuzz: ${this.total} requests; per route: ${routes}`;
  }
}
