import { Type } from "@sinclair/typebox";
import { listPage } from "../../db/list-pages.js";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { adminOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import { keyChanges, keyObject, keyTerms } from "./organization-objects.js";
import {
  type ApiKeyCreateBody,
  ApiKeyCreateRequestSchema,
  ApiKeyListQuerySchema,
  ApiKeyParams,
  type ApiKeyUpdateBody,
  ApiKeyUpdateRequestSchema,
  OrganizationApiKeyCreatedSchema,
  OrganizationApiKeyDeletedSchema,
  OrganizationApiKeyListSchema,
  OrganizationApiKeySchema,
} from "./organization-schemas.js";

const ADMIN_ONLY = "Needs an `admin` key: `inference` keys get 403.";

const forbidden = { 403: Type.Ref(ErrorResponse) };

/** The organization's keys; every route needs an `admin` key. */
export function registerOrganizationKeyRoutes(app: App, services: Services): void {
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
