import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { BatchObjectSchema } from "../../schemas/batches.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { BatchParams } from "./batch-params.js";

export function registerCancelBatchRoute(app: App, services: Services): void {
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
