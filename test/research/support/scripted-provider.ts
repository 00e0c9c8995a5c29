import type { HttpProviderEntry } from "../../../src/research/providers/catalogue.js";
import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../../../src/research/source.js";
import { ResearchSourceError } from "../../../src/research/source.js";

/** What a scripted source does when searched. */
export type Script =
  | { results: ResearchResult[] }
  | { fail: string }
  /** Never answers and ignores the abort signal: only the caller's own time limit ends it. */
  | { hang: true };

export interface ScriptedCall {
  query: string;
  cutoff: Date | null;
  limit: number;
}

/**
 * A search provider the tests script, registered under its own provider name the way an
 * operator's configuration names a real one. Every source it creates follows `script`.
 */
export class ScriptedProvider implements HttpProviderEntry {
  readonly needsApiKey = false;
  readonly defaultBaseUrl = "http://scripted.invalid";
  script: Script = { results: [] };
  readonly calls: ScriptedCall[] = [];

  constructor(
    private readonly name: string,
    readonly honoursCutoff: boolean,
  ) {}

  create(_options: HttpSourceOptions): ResearchSource {
    return {
      provider: this.name,
      honoursCutoff: this.honoursCutoff,
      search: (query, options) => this.search(query, options),
    };
  }

  reset(): void {
    this.script = { results: [] };
    this.calls.length = 0;
  }

  private async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    this.calls.push({ query, cutoff: options.cutoff, limit: options.limit });
    const script = this.script;
    if ("hang" in script) return new Promise<never>(() => {});
    if ("fail" in script) throw new ResearchSourceError(this.name, script.fail);
    return script.results;
  }
}

/** A result with the fields tests care about; the rest defaulted. */
export function result(fields: Partial<ResearchResult> & { url: string }): ResearchResult {
  return {
    title: null,
    publishedAt: null,
    firstSeenAt: null,
    snippet: null,
    text: null,
    source: null,
    trust: "untrusted",
    ...fields,
  };
}
