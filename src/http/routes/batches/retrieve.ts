import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { BatchObjectSchema } from "../../schemas/batches.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { BatchParams } from "./batch-params.js";

export function registerRetrieveBatchRoute(app: App, services: Services): void {
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
}
