import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { FileParams } from "./file-params.js";

export function registerFileContentRoute(app: App, services: Services): void {
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
}

/** A filename as an RFC 5987 `filename*` value. */
function encodeRfc5987(filename: string): string {
  return encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
