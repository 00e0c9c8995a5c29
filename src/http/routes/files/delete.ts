import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { FileDeletedSchema } from "../../schemas/files.js";
import { FileParams } from "./file-params.js";

export function registerDeleteFileRoute(app: App, services: Services): void {
  app.delete(
    "/files/:file_id",
    {
      schema: {
        summary: "Delete a file",
        tags: ["files"],
        params: FileParams,
        response: withErrors({ 200: Type.Ref(FileDeletedSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) =>
      services.files.delete(principalOf(request).organizationId, request.params.file_id),
  );
}
