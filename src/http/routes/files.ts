import type { Multipart } from "@fastify/multipart";
import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app.js";
import { ServiceError } from "../../errors.js";
import { MAX_FILE_BYTES, type UploadPart } from "../../files/files-service.js";
import type { Services } from "../../services.js";
import { principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import {
  FileDeletedSchema,
  FileListQuerySchema,
  FileListSchema,
  FileObjectSchema,
  UploadFormSchema,
} from "../schemas/files.js";

const FileParams = Type.Object({ file_id: Type.String({ minLength: 1 }) });

/** The multipart form as the files service reads it: fields and one streamed file, in order. */
async function* uploadParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) {
    throw new ServiceError(
      "unsupported_media_type",
      "Uploads must be sent as multipart/form-data with the fields 'file' and 'purpose'.",
      { code: "unsupported_media_type" },
    );
  }
  // One byte over the limit reaches the service, which reports the file as too large.
  const parts = request.parts({ limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: 16 } });
  for await (const part of parts as AsyncIterable<Multipart>) {
    if (part.type === "file") {
      yield { kind: "file", name: part.fieldname, filename: part.filename, stream: part.file };
    } else {
      yield { kind: "field", name: part.fieldname, value: String(part.value) };
    }
  }
}

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
        produces: ["application/octet-stream"],
        response: withErrors({
          200: Type.Unknown({ description: "the file's bytes, as uploaded or written" }),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request, reply) => {
      const { file, body } = await services.files.content(
        principalOf(request).organizationId,
        request.params.file_id,
      );
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-length", file.bytes)
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
