import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import {
  FileDeletedSchema,
  FileListQuerySchema,
  FileListSchema,
  FileObjectSchema,
  UploadFormSchema,
} from "../schemas/files.js";
import { drainUnreadBody } from "../unread-body.js";
import { uploadParts } from "../upload-parts.js";

const FileParams = Type.Object({ file_id: Type.String({ minLength: 1 }) });

export async function registerFileRoutes(app: App, services: Services): Promise<void> {
  await app.register(multipart);

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

  app.get(
    "/files/:file_id/content",
    {
      schema: {
        summary: "Retrieve a file's content",
        tags: ["files"],
        params: FileParams,
        response: withErrors({
          // Only the file's bytes are octet-stream; errors are JSON like everywhere else.
          200: Type.Unsafe<unknown>({
            description: "the file's bytes, as uploaded or written",
            content: {
              "application/octet-stream": { schema: Type.String({ format: "binary" }) },
            },
          }),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request, reply) => {
      const { file, body } = await services.files.content(
        principalOf(request).organizationId,
        request.params.file_id,
      );
      // Always a download, never a page: an uploaded report.html must not run as this origin.
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-length", file.bytes)
        .header(
          "content-disposition",
          `attachment; filename*=UTF-8''${encodeRfc5987(file.filename)}`,
        )
        .header("x-content-type-options", "nosniff")
        .send(body);
    },
  );

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

/** A filename as an RFC 5987 `filename*` value. */
function encodeRfc5987(filename: string): string {
  return encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
