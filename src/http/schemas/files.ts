import { Type } from "@sinclair/typebox";
import { FilePurposeSchema } from "../../files/file-object-schema.js";
import { Nullable } from "./common.js";

export {
  FileDeletedSchema,
  FileListSchema,
  FileObjectSchema,
} from "../../files/file-object-schema.js";

/** Documents the multipart upload form; the fields are checked by the files service. */
export const UploadFormSchema = Type.Object({
  file: Type.String({
    format: "binary",
    description:
      "`batch`: a JSON Lines file, at most 200 MB; `evaluation`: a backtest summary (`.json`), report (`.html`) or plot (`.svg`), at most 20 MB",
  }),
  purpose: Type.String({ description: "`batch` or `evaluation`" }),
  "expires_after[anchor]": Type.Optional(Nullable(Type.String({ description: "`created_at`" }))),
  "expires_after[seconds]": Type.Optional(
    Nullable(Type.Integer({ minimum: 3600, maximum: 2_592_000 })),
  ),
});

export const FileListQuerySchema = Type.Object({
  purpose: Type.Optional(FilePurposeSchema),
  after: Type.Optional(
    Type.String({ minLength: 1, description: "id of the last file of the previous page" }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000 }),
  order: Type.Union([Type.Literal("asc"), Type.Literal("desc")], { default: "desc" }),
});
