import { Type } from "@sinclair/typebox";
import { listPage } from "../../../db/list-pages.js";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { keyObject } from "../organization-objects.js";
import { ApiKeyListQuerySchema, OrganizationApiKeyListSchema } from "../organization-schemas.js";
import { ADMIN_ONLY, forbidden } from "./admin-only.js";

export function registerListKeysRoute(app: App, services: Services): void {
  app.get(
    "/organization/api_keys",
    {
      schema: {
        summary: "List the organization's API keys",
        description: `Revoked keys included, in creation order. ${ADMIN_ONLY}`,
        tags: ["organization"],
        querystring: ApiKeyListQuerySchema,
        response: withErrors({
          200: Type.Ref(OrganizationApiKeyListSchema),
          ...forbidden,
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const page = await services.organizationKeys.list(adminOf(request).organizationId, {
        after: request.query.after,
        limit: request.query.limit,
        order: request.query.order,
      });
      return listPage(page.keys.map(keyObject), page.hasMore);
    },
  );
}
