import type { ModelConfig } from "../config/index.js";
import { createBaselineProvider } from "./baseline/index.js";
import { createOpenAIProvider, type OpenAIProvider } from "./openai/index.js";
import type { ForecastHint, InferenceProvider } from "./provider.js";

export interface ProviderRegistryOptions {
  env: Record<string, string | undefined>;
  /** Lets the baseline state a forecast in words (supplied by the forecast module). */
  describeForecast?: (hint: ForecastHint) => string;
}

/** One provider per configured model id, built once; closes upstream connection pools on exit. */
export class ProviderRegistry {
  private readonly providers = new Map<string, InferenceProvider>();
  private readonly pools: OpenAIProvider[] = [];
  readonly baseline: InferenceProvider;

  constructor(models: ModelConfig[], options: ProviderRegistryOptions) {
    this.baseline = createBaselineProvider(
      options.describeForecast ? { describeForecast: options.describeForecast } : {},
    );
    for (const model of models) {
      this.providers.set(
        model.id,
        model.provider === "baseline" ? this.baseline : this.upstream(model, options.env),
      );
    }
  }

  /** The provider of a catalogue model; the catalogue has already rejected unknown ids. */
  get(modelId: string): InferenceProvider {
    const provider = this.providers.get(modelId);
    if (!provider) throw new Error(`no provider for model ${modelId}`);
    return provider;
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }

  private upstream(model: ModelConfig, env: ProviderRegistryOptions["env"]): InferenceProvider {
    const primary = {
      base_url: model.base_url ?? "",
      api_key_env: model.api_key_env,
      upstream_model: model.upstream_model,
    };
    const deployments = [primary, ...(model.fallbacks ?? [])].map((deployment) => ({
      baseUrl: deployment.base_url.replace(/\/+$/, ""),
      apiKey: deployment.api_key_env ? (env[deployment.api_key_env] ?? null) : null,
      upstreamModel: deployment.upstream_model ?? model.upstream_model ?? model.id,
    }));
    const provider = createOpenAIProvider({
      deployments,
      timeouts: {
        ...(model.timeouts?.connect_ms ? { connectMs: model.timeouts.connect_ms } : {}),
        ...(model.timeouts?.headers_ms ? { headersMs: model.timeouts.headers_ms } : {}),
        ...(model.timeouts?.body_ms ? { bodyMs: model.timeouts.body_ms } : {}),
      },
      retry: model.retry_attempts ? { attempts: model.retry_attempts } : {},
    });
    this.pools.push(provider);
    return provider;
  }
}
