import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { keyChanges, keyObject } from "../organization-objects.js";
import {
  ApiKeyParams,
  type ApiKeyUpdateBody,
  ApiKeyUpdateRequestSchema,
  OrganizationApiKeySchema,
} from "../organization-schemas.js";
import { ADMIN_ONLY, forbidden } from "./admin-only.js";

export function registerUpdateKeyRoute(app: App, services: Services): void {
  app.post<{ Body: ApiKeyUpdateBody; Params: { key_id: string } }>(
    "/organization/api_keys/:key_id",
    {
      schema: {
        summary: "Modify an API key",
        description: `Changes a live key's \`name\`, \`expires_at\` or \`spend_limit_usd\`; fields left out stay as they are and null removes one. A key given its first spend limit starts from what it has already spent; a changed limit keeps the key's spend and open holds, so a limit below them stops its paid requests. A revoked key cannot be changed (409). ${ADMIN_ONLY}`,
        tags: ["organization"],
        params: ApiKeyParams,
        body: Type.Ref(ApiKeyUpdateRequestSchema),
        response: withErrors({
          200: Type.Ref(OrganizationApiKeySchema),
          400: Type.Ref(ErrorResponse),
          ...forbidden,
          404: Type.Ref(ErrorResponse),
          409: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      keyObject(
        await services.organizationKeys.update(
          adminOf(request).organizationId,
          request.params.key_id,
          keyChanges(request.body),
        ),
      ),
  );
}
