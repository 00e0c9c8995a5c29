import { randomBytes } from "node:crypto";

/**
 * Text that must never reach the log: a marker unique to this run, carried by every prompt and
 * every made-up credential, plus the real keys and every Authorization value sent.
 */
export class RunSecrets {
  readonly canary = `canary${randomBytes(6).toString("hex")}`;
  private readonly secrets = new Map<string, string>([[this.canary, "prompt or credential"]]);

  /**
   * Records a secret. Values too short to tell apart from ordinary text are skipped, and so are
   * values holding a secret already known: finding that one finds any leak of them.
   */
  add(value: string, what: string): void {
    if (value.length < 12) return;
    for (const known of this.secrets.keys()) if (value.includes(known)) return;
    this.secrets.set(value, what);
  }

  /** A real API key, in full and without its `sk_` prefix. */
  addApiKey(key: string): void {
    this.add(key, "API key");
    this.add(key.replace(/^sk_/, ""), "API key without its prefix");
  }

  all(): { value: string; what: string }[] {
    return [...this.secrets].map(([value, what]) => ({ value, what }));
  }
}
