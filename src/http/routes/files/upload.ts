import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { FileObjectSchema, UploadFormSchema } from "../../schemas/files.js";
import { drainUnreadBody } from "../../unread-body.js";
import { uploadParts } from "../../upload-parts.js";

/** `POST /files`: needs the multipart parser registered first. */
export function registerUploadFileRoute(app: App, services: Services): void {
  app.post(
    "/files",
    {
      schema: {
        summary: "Upload a file",
        tags: ["files"],
        consumes: ["multipart/form-data"],
        body: UploadFormSchema,
        response: withErrors({
          200: Type.Ref(FileObjectSchema),
          400: Type.Ref(ErrorResponse),
          413: Type.Ref(ErrorResponse),
          415: Type.Ref(ErrorResponse),
        }),
      },
      // The form is streamed, not parsed up front; the files service checks every field.
      validatorCompiler: () => () => true,
      // A form refused part-way is answered before the client has finished sending it.
      onResponse: (request, _reply, done) => {
        drainUnreadBody(request.raw);
        done();
      },
    },
    async (request) =>
      services.files.upload(principalOf(request).organizationId, uploadParts(request)),
  );
}
