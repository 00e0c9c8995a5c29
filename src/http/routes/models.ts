import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import { ModelListSchema, ModelObjectSchema } from "../schemas/models.js";

export function registerModelRoutes(app: App, services: Services): void {
  app.get(
    "/models",
    {
      schema: {
        summary: "List models",
        tags: ["models"],
        response: withErrors({ 200: Type.Ref(ModelListSchema) }),
      },
    },
    async () => ({ object: "list" as const, data: services.catalogue.list() }),
  );

  app.get(
    "/models/:model_id",
    {
      schema: {
        summary: "Retrieve a model",
        tags: ["models"],
        params: Type.Object({ model_id: Type.String({ minLength: 1 }) }),
        response: withErrors({ 200: Type.Ref(ModelObjectSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) => services.catalogue.get(request.params.model_id, "model_id").object,
  );

  // Ids may hold slashes ("Qwen/Qwen3-8B"): SDKs escape them, curl users do not.
  app.get(
    "/models/*",
    {
      schema: {
        hide: true,
        params: Type.Object({ "*": Type.String({ minLength: 1 }) }),
        response: withErrors({ 200: Type.Ref(ModelObjectSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) => services.catalogue.get(request.params["*"], "model_id").object,
  );
}
