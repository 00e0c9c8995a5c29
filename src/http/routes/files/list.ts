import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { FileListQuerySchema, FileListSchema } from "../../schemas/files.js";

export function registerListFilesRoute(app: App, services: Services): void {
  app.get(
    "/files",
    {
      schema: {
        summary: "List files",
        tags: ["files"],
        querystring: FileListQuerySchema,
        response: withErrors({ 200: Type.Ref(FileListSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) => services.files.list(principalOf(request).organizationId, request.query),
  );
}
