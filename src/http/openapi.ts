import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { Config } from "../config/index.js";

export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    // Name components after their `$id` instead of def-0, def-1…
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Sibyl",
        version: "1.0.0",
        description:
          "Forecasting inference service: OpenAI-compatible chat and text completions with research, structured forecast answers, credits, files and batches.",
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
