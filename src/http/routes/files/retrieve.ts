import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { FileObjectSchema } from "../../schemas/files.js";
import { FileParams } from "./file-params.js";

export function registerRetrieveFileRoute(app: App, services: Services): void {
  app.get(
    "/files/:file_id",
    {
      schema: {
        summary: "Retrieve a file",
        tags: ["files"],
        params: FileParams,
        response: withErrors({ 200: Type.Ref(FileObjectSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) =>
      services.files.retrieve(principalOf(request).organizationId, request.params.file_id),
  );
}
