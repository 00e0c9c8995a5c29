import type { ModelConfig } from "../config/index.js";
import { ServiceError } from "../errors.js";
import { parseTokenPrice, type TokenPrice } from "../util/money.js";

/** The public description of a model, as `/v1/models` lists it. */
export interface ModelObject {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  name: string;
  description: string;
  context_length: number;
  max_completion_tokens: number;
  pricing: Record<string, string>;
  /** Only when the configuration declares it. */
  knowledge_cutoff?: string;
}

export interface CatalogueEntry {
  config: ModelConfig;
  object: ModelObject;
  price: { prompt: TokenPrice; completion: TokenPrice };
}

export const DEFAULT_OWNER = "sibyl";

export class ModelCatalogue {
  private readonly entries = new Map<string, CatalogueEntry>();

  constructor(models: ModelConfig[]) {
    for (const config of models) {
      const pricing = config.pricing ?? { prompt: "0", completion: "0" };
      this.entries.set(config.id, {
        config,
        price: {
          prompt: parseTokenPrice(pricing.prompt),
          completion: parseTokenPrice(pricing.completion),
        },
        object: {
          id: config.id,
          object: "model",
          created: config.created ?? 0,
          owned_by: config.owned_by ?? DEFAULT_OWNER,
          name: config.name ?? "",
          description: config.description ?? "",
          context_length: config.context_length ?? 0,
          max_completion_tokens: config.max_completion_tokens ?? 0,
          pricing: { ...pricing },
          ...(config.knowledge_cutoff === undefined
            ? {}
            : { knowledge_cutoff: config.knowledge_cutoff }),
        },
      });
    }
  }

  list(): ModelObject[] {
    return [...this.entries.values()].map((entry) => entry.object);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The model, or a 404 `model_not_found` naming it. */
  get(id: string, param: string | null = "model"): CatalogueEntry {
    const entry = this.entries.get(id);
    if (!entry) {
      throw new ServiceError(
        "not_found",
        `The model '${id}' does not exist. GET /v1/models lists the available models.`,
        { code: "model_not_found", param },
      );
    }
    return entry;
  }
}
