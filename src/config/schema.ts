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
    /** The end of the model's training data: a date (YYYY-MM-DD) or an RFC 3339 date-time. */
    knowledge_cutoff: Type.Optional(
      Type.String({
        pattern:
          "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([Tt]([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d+)?([Zz]|[+-]([01]\\d|2[0-3]):[0-5]\\d))?$",
      }),
    ),
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
    /**
     * The model server honours `response_format` with a JSON Schema (OpenAI, vLLM, llama.cpp):
     * an answer repair then asks for the answer under the schema of its type.
     */
    structured_output: Type.Optional(Type.Boolean()),
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
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120000 })),
  },
  { additionalProperties: false },
);

/** A payment method's name on the wire (`chain`, `tempo`…): lowercase, as the Payment scheme requires. */
const PaymentMethodName = Type.String({ pattern: "^[a-z][a-z0-9:_-]*$" });
const EvmAddress = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" });

const ChainRail = Type.Object(
  {
    method: Type.Optional(PaymentMethodName),
    rpc_url: Type.String({ pattern: "^https?://" }),
    chain_id: Type.Optional(Type.Integer({ minimum: 1 })),
    currency: Type.Optional(EvmAddress),
    decimals: Type.Optional(Type.Integer({ minimum: 2, maximum: 36 })),
    recipient: EvmAddress,
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120000 })),
  },
  { additionalProperties: false },
);

const CardRail = Type.Object(
  {
    method: Type.Optional(PaymentMethodName),
    api_base: Type.Optional(Type.String({ pattern: "^https?://" })),
    secret_key_env: Type.String({ minLength: 1 }),
    network_id: Type.String({ minLength: 1 }),
    payment_method_types: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 16 }),
    ),
    api_version: Type.Optional(Type.String({ minLength: 1 })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120000 })),
  },
  { additionalProperties: false },
);

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
          body_stall_seconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
          max_connections_per_address: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    database: Type.Optional(
      Type.Object(
        {
          url: Type.Optional(Type.String({ pattern: "^(sqlite:|postgres://|postgresql://)" })),
          pool_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          statement_timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
          connect_timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
          prepared_statements: Type.Optional(Type.Boolean()),
        },
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
    shutdown: Type.Optional(
      Type.Object(
        { grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })) },
        { additionalProperties: false },
      ),
    ),
    limits: Type.Optional(
      Type.Object(
        {
          requests_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
          failed_authentications_per_minute: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    models: Type.Optional(Type.Array(Model)),
    research: Type.Optional(
      Type.Object(
        {
          cache_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800 })),
          context_tokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 200000 })),
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
    news: Type.Optional(
      Type.Object(
        {
          feeds: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  url: Type.String({ pattern: "^https?://" }),
                  every_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10080 })),
                },
                { additionalProperties: false },
              ),
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
          max_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    payments: Type.Optional(
      Type.Object(
        {
          secret_env: Type.Optional(Type.String({ minLength: 1 })),
          challenge_ttl_seconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 86400 })),
          allow_plain_http: Type.Optional(Type.Boolean()),
          limits: Type.Optional(
            Type.Object(
              {
                per_address_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
                per_challenge_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
              },
              { additionalProperties: false },
            ),
          ),
          chain: Type.Optional(ChainRail),
          card: Type.Optional(CardRail),
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
export type ChainRailConfig = Static<typeof ChainRail>;
export type CardRailConfig = Static<typeof CardRail>;
