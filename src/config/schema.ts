import { type Static, Type } from "@sinclair/typebox";

/** A USD amount as a decimal string; charges are whole nano-dollars, so at most 9 decimals. */
const UsdDecimal = Type.String({ pattern: "^[0-9]+(\\.[0-9]{1,9})?$" });

/** USD per token as a decimal string ("0.0000002"); prices are exact femto-dollars (15 decimals). */
const TokenPriceDecimal = Type.String({ pattern: "^[0-9]+(\\.[0-9]{1,15})?$" });

const Pricing = Type.Object(
  { prompt: TokenPriceDecimal, completion: TokenPriceDecimal },
  { additionalProperties: false },
);

const Deployment = Type.Object(
  {
    base_url: Type.String({ minLength: 1 }),
    api_key_env: Type.Optional(Type.String({ minLength: 1 })),
    upstream_model: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

const Model = Type.Object(
  {
    id: Type.String({ minLength: 1, pattern: "^[A-Za-z0-9._:/@-]+$" }),
    provider: Type.Union([Type.Literal("baseline"), Type.Literal("openai")]),
    base_url: Type.Optional(Type.String({ minLength: 1 })),
    api_key_env: Type.Optional(Type.String({ minLength: 1 })),
    upstream_model: Type.Optional(Type.String({ minLength: 1 })),
    fallbacks: Type.Optional(Type.Array(Deployment)),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    owned_by: Type.Optional(Type.String()),
    created: Type.Optional(Type.Integer({ minimum: 0 })),
    context_length: Type.Optional(Type.Integer({ minimum: 0 })),
    max_completion_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    pricing: Type.Optional(Pricing),
    timeouts: Type.Optional(
      Type.Object(
        {
          connect_ms: Type.Optional(Type.Integer({ minimum: 1 })),
          headers_ms: Type.Optional(Type.Integer({ minimum: 1 })),
          body_ms: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    retry_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  },
  { additionalProperties: false },
);

const ResearchSource = Type.Object(
  {
    provider: Type.String({ minLength: 1 }),
    base_url: Type.Optional(Type.String({ minLength: 1 })),
    api_key_env: Type.Optional(Type.String({ minLength: 1 })),
    cost_usd: Type.Optional(UsdDecimal),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  },
  { additionalProperties: false },
);

const PaymentRail = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]));

export const ConfigFileSchema = Type.Object(
  {
    server: Type.Optional(
      Type.Object(
        {
          host: Type.Optional(Type.String({ minLength: 1 })),
          port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
          public_url: Type.Optional(Type.String({ minLength: 1 })),
          log_level: Type.Optional(
            Type.Union(
              ["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((level) =>
                Type.Literal(level),
              ),
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    database: Type.Optional(
      Type.Object(
        { url: Type.Optional(Type.String({ pattern: "^(sqlite:|postgres://|postgresql://)" })) },
        { additionalProperties: false },
      ),
    ),
    files: Type.Optional(
      Type.Object(
        {
          store: Type.Optional(Type.Union([Type.Literal("disk"), Type.Literal("s3")])),
          dir: Type.Optional(Type.String({ minLength: 1 })),
          bucket: Type.Optional(Type.String({ minLength: 1 })),
          endpoint: Type.Optional(Type.String({ minLength: 1 })),
          region: Type.Optional(Type.String({ minLength: 1 })),
          access_key_id_env: Type.Optional(Type.String({ minLength: 1 })),
          secret_access_key_env: Type.Optional(Type.String({ minLength: 1 })),
          force_path_style: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    limits: Type.Optional(
      Type.Object(
        { requests_per_minute: Type.Optional(Type.Integer({ minimum: 1 })) },
        { additionalProperties: false },
      ),
    ),
    models: Type.Optional(Type.Array(Model)),
    research: Type.Optional(
      Type.Object(
        {
          sources: Type.Optional(
            Type.Object(
              {
                news_search: Type.Optional(ResearchSource),
                web_search: Type.Optional(ResearchSource),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    classification: Type.Optional(
      Type.Object(
        {
          model: Type.Optional(Type.String({ minLength: 1 })),
          cost_usd: Type.Optional(UsdDecimal),
        },
        { additionalProperties: false },
      ),
    ),
    batches: Type.Optional(
      Type.Object(
        {
          price_multiplier: Type.Optional(Type.Number({ minimum: 0 })),
          concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024 })),
          lease_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
        },
        { additionalProperties: false },
      ),
    ),
    payments: Type.Optional(
      Type.Object(
        {
          secret_env: Type.Optional(Type.String({ minLength: 1 })),
          challenge_ttl_seconds: Type.Optional(Type.Integer({ minimum: 10 })),
          chain: Type.Optional(PaymentRail),
          card: Type.Optional(PaymentRail),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;
export type ModelConfig = Static<typeof Model>;
export type DeploymentConfig = Static<typeof Deployment>;
export type ResearchSourceConfig = Static<typeof ResearchSource>;
