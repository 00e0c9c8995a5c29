import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { ApiKeyParams, OrganizationApiKeyDeletedSchema } from "../organization-schemas.js";
import { ADMIN_ONLY, forbidden } from "./admin-only.js";

export function registerRevokeKeyRoute(app: App, services: Services): void {
  app.delete(
    "/organization/api_keys/:key_id",
    {
      schema: {
        summary: "Revoke an API key",
        description: `The key is refused from now on; it stays listed with \`revoked_at\`. Revoking again changes nothing. ${ADMIN_ONLY}`,
        tags: ["organization"],
        params: ApiKeyParams,
        response: withErrors({
          200: Type.Ref(OrganizationApiKeyDeletedSchema),
          ...forbidden,
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const key = await services.organizationKeys.revoke(
        adminOf(request).organizationId,
        request.params.key_id,
      );
      return {
        object: "organization.api_key.deleted" as const,
        id: key.id,
        deleted: true as const,
      };
    },
  );
}
