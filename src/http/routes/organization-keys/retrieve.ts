import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { keyObject } from "../organization-objects.js";
import { ApiKeyParams, OrganizationApiKeySchema } from "../organization-schemas.js";
import { ADMIN_ONLY, forbidden } from "./admin-only.js";

export function registerRetrieveKeyRoute(app: App, services: Services): void {
  app.get(
    "/organization/api_keys/:key_id",
    {
      schema: {
        summary: "Retrieve an API key",
        description: ADMIN_ONLY,
        tags: ["organization"],
        params: ApiKeyParams,
        response: withErrors({
          200: Type.Ref(OrganizationApiKeySchema),
          ...forbidden,
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      keyObject(
        await services.organizationKeys.get(adminOf(request).organizationId, request.params.key_id),
      ),
  );
}
