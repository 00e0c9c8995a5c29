import { Type } from "@sinclair/typebox";
import type { App } from "../../app.js";
import type { BatchCreateInput } from "../../batches/batches-service.js";
import type { Services } from "../../services.js";
import { principalOf } from "../auth.js";
import {
  BatchCreateRequestSchema,
  BatchListQuerySchema,
  BatchListSchema,
  BatchObjectSchema,
} from "../schemas/batches.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";

const BatchParams = Type.Object({ batch_id: Type.String({ minLength: 1 }) });

export function registerBatchRoutes(app: App, services: Services): void {
  app.post(
    "/batches",
    {
      schema: {
        summary: "Create a batch",
        tags: ["batches"],
        body: Type.Ref(BatchCreateRequestSchema),
        response: withErrors({ 200: Type.Ref(BatchObjectSchema) }),
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request);
      return services.batches.create(organizationId, keyId, request.body as BatchCreateInput);
    },
  );

  app.get(
    "/batches",
    {
      schema: {
        summary: "List batches, newest first",
        tags: ["batches"],
        querystring: BatchListQuerySchema,
        response: withErrors({ 200: Type.Ref(BatchListSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) =>
      services.batches.list(principalOf(request).organizationId, {
        after: request.query.after ?? undefined,
        limit: request.query.limit,
      }),
  );

  app.get(
    "/batches/:batch_id",
    {
      schema: {
        summary: "Retrieve a batch",
        tags: ["batches"],
        params: BatchParams,
        response: withErrors({ 200: Type.Ref(BatchObjectSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) =>
      services.batches.retrieve(principalOf(request).organizationId, request.params.batch_id),
  );

  app.post(
    "/batches/:batch_id/cancel",
    {
      schema: {
        summary: "Cancel a batch",
        tags: ["batches"],
        params: BatchParams,
        response: withErrors({
          200: Type.Ref(BatchObjectSchema),
          404: Type.Ref(ErrorResponse),
          409: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      services.batches.cancel(principalOf(request).organizationId, request.params.batch_id),
  );
}
