import { Type } from "@sinclair/typebox";
import type { BatchCreateInput } from "../../../batches/batches-service.js";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { BatchCreateRequestSchema, BatchObjectSchema } from "../../schemas/batches.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";

export function registerCreateBatchRoute(app: App, services: Services): void {
  app.post(
    "/batches",
    {
      schema: {
        summary: "Create a batch",
        description:
          "Reads the input file at once to refuse a batch a line of which could not run: 402 when the organization's balance is less than the dearest line's worst case (with Payment challenges for at least the whole batch's worst case on a server that takes payments), 403 `key_spend_limit_reached` when the key's spend limit leaves less. Lines are then held one at a time as they run.",
        tags: ["batches"],
        body: Type.Ref(BatchCreateRequestSchema),
        response: withErrors({
          200: Type.Ref(BatchObjectSchema),
          402: Type.Ref(ErrorResponse),
          403: Type.Ref(ErrorResponse),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request);
      return services.batches.create(organizationId, keyId, request.body as BatchCreateInput);
    },
  );
}
