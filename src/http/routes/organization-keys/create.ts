import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { keyObject, keyTerms } from "../organization-objects.js";
import {
  type ApiKeyCreateBody,
  ApiKeyCreateRequestSchema,
  OrganizationApiKeyCreatedSchema,
} from "../organization-schemas.js";
import { ADMIN_ONLY, forbidden } from "./admin-only.js";

export function registerCreateKeyRoute(app: App, services: Services): void {
  app.post<{ Body: ApiKeyCreateBody }>(
    "/organization/api_keys",
    {
      schema: {
        summary: "Create an API key",
        description: `The key itself is in \`value\`, returned this once. Default scope \`inference\`. ${ADMIN_ONLY}`,
        tags: ["organization"],
        body: Type.Ref(ApiKeyCreateRequestSchema),
        response: withErrors({
          200: Type.Ref(OrganizationApiKeyCreatedSchema),
          400: Type.Ref(ErrorResponse),
          ...forbidden,
        }),
      },
    },
    async (request, reply) => {
      const { organizationId } = adminOf(request);
      const created = await services.organizationKeys.create(
        organizationId,
        keyTerms(request.body),
      );
      // The answer carries the key itself: no cache may keep it.
      reply.header("cache-control", "no-store");
      return { ...keyObject(created.record), value: created.secret };
    },
  );
}
