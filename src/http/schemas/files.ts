import { Type } from "@sinclair/typebox";
import { Nullable } from "./common.js";

const FilePurposeSchema = Type.Union(
  [Type.Literal("batch"), Type.Literal("batch_output"), Type.Literal("evaluation")],
  {
    description:
      "`batch`: a batch's input; `batch_output`: results the service writes; `evaluation` (Sibyl): a backtest's `summary.json`, `report.html` or `calibration.svg`, uploaded by `sibyl eval run`",
  },
);

export const FileObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("file"),
    bytes: Type.Integer({ minimum: 0 }),
    created_at: Type.Integer(),
    filename: Type.String(),
    purpose: FilePurposeSchema,
    status: Type.Union([
      Type.Literal("uploaded"),
      Type.Literal("processed"),
      Type.Literal("error"),
    ]),
    expires_at: Nullable(Type.Integer()),
    status_details: Nullable(Type.String()),
  },
  { $id: "FileObject" },
);

export const FileDeletedSchema = Type.Object(
  { id: Type.String(), object: Type.Literal("file"), deleted: Type.Literal(true) },
  { $id: "FileDeleted" },
);

export const FileListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(FileObjectSchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "FileListResponse" },
);

/** Documents the multipart form (interface 2.13); the fields are checked by the files service. */
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
