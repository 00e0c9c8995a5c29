import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { BatchListQuerySchema, BatchListSchema } from "../../schemas/batches.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";

export function registerListBatchesRoute(app: App, services: Services): void {
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
}
