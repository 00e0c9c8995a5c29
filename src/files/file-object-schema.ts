import { Type } from "@sinclair/typebox";
import { Nullable } from "../util/nullable-schema.js";

/*
 * The file objects of the Files API as they are sent: they document the routes in /openapi.json,
 * and `FileObject`, `FileList` and `FileDeleted` (file-object.ts) are their `Static` types.
 */

export const FilePurposeSchema = Type.Union(
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
