import { Type } from "@sinclair/typebox";
import Fastify, { type FastifyInstance } from "fastify";
import { handleError } from "../../src/http/errors.js";
import { registerJsonBodyParser } from "../../src/http/json-body.js";
import { createRouteValidators } from "../../src/http/validation.js";

export const ItemSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
    count: Type.Optional(Type.Integer({ exclusiveMinimum: 0 })),
    flag: Type.Optional(Type.Boolean()),
    stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 })])),
    role: Type.Optional(Type.Union([Type.Literal("user"), Type.Literal("assistant")])),
    mode: Type.Optional(Type.Literal("fast")),
    email: Type.Optional(Type.String({ format: "email" })),
    messages: Type.Optional(
      Type.Array(
        Type.Object(
          { role: Type.String(), content: Type.String() },
          { additionalProperties: false },
        ),
        { minItems: 1 },
      ),
    ),
  },
  { additionalProperties: false, $id: "Item" },
);

export const QuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  after: Type.Optional(Type.String()),
  include: Type.Optional(Type.Boolean()),
});

/**
 * A small app wired with the service's own validator compiler, JSON parser and error handler,
 * so their behaviour can be checked on schemas that exercise every rule.
 */
export async function buildValidationApp(bodyLimit = 1024 * 1024): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(createRouteValidators(() => app.getSchemas()).compiler);
  registerJsonBodyParser(app, bodyLimit);
  app.setErrorHandler(handleError);
  app.addSchema(ItemSchema);
  app.post(
    "/items",
    { schema: { body: Type.Ref(ItemSchema), querystring: QuerySchema } },
    async (request) => ({ body: request.body, query: request.query }),
  );
  // Open objects (extra keys allowed), as OpenAI-compatible request bodies are.
  app.post("/open", { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => {
    const copy = Object.assign({}, request.body);
    return { plainPrototype: Object.getPrototypeOf(copy) === Object.prototype };
  });
  app.get(
    "/items/:item_id",
    { schema: { params: Type.Object({ item_id: Type.Integer({ minimum: 1 }) }) } },
    async (request) => ({ params: request.params }),
  );
  await app.ready();
  return app;
}
