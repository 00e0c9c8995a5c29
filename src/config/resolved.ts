import type { ConfigFile, ModelConfig, ResearchSourceConfig } from "./schema.js";

export const BASELINE_MODEL_ID = "sibyl-baseline";

/** The configuration after defaults and environment overrides: every key present. */
export interface Config {
  server: { host: string; port: number; public_url: string; log_level: string };
  data_dir: string;
  database: { url: string };
  files: {
    store: "disk" | "s3";
    dir: string;
    bucket: string;
    endpoint: string | null;
    region: string;
    access_key_id_env: string | null;
    secret_access_key_env: string | null;
    force_path_style: boolean;
  };
  limits: { requests_per_minute: number };
  models: ModelConfig[];
  research: {
    sources: { news_search?: ResearchSourceConfig; web_search?: ResearchSourceConfig };
  };
  classification: { model: string; cost_usd: string };
  batches: {
    price_multiplier: number;
    concurrency: number;
    /** How long a worker's claim on a line lasts without renewal (a dead worker's lines return). */
    lease_seconds: number;
  };
  payments: ConfigFile["payments"] | null;
}

export function defaultModels(): ModelConfig[] {
  return [
    {
      id: BASELINE_MODEL_ID,
      provider: "baseline",
      name: "Sibyl baseline",
      description:
        "Built-in deterministic reference forecaster: restates the question and answers with an uninformative prior. Any real model should beat it.",
      context_length: 32768,
      max_completion_tokens: 4096,
      pricing: { prompt: "0", completion: "0" },
    },
  ];
}
