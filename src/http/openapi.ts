import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { Config } from "../config/index.js";
import { FORESIGHT_PREFIXES } from "./routes/v1.js";

/** The Foresight aliases repeat `/v1/compat` route for route: described once, not three times. */
const isAlias = (url: string) => FORESIGHT_PREFIXES.some((prefix) => url.startsWith(`${prefix}/`));

export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    // Name components after their `$id` instead of def-0, def-1…
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
    transform: ({ schema, url }) => ({
      schema: isAlias(url) ? { ...schema, hide: true } : schema,
      url,
    }),
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Sibyl",
        version: "1.0.0",
        description:
          "Forecasting inference service: OpenAI-compatible chat and text completions with research, structured forecast answers, credits, files and batches. Every path under /v1/compat is also served under /v1/openai and /api/public/v1/openai (the hosted Foresight API's paths); those copies are not listed again.",
      },
      servers: [{ url: config.server.public_url }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "API key (sk_…)" },
        },
      },
      security: [{ bearerAuth: [] }],
    },
  };
}
