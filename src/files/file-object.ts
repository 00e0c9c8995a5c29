import type { Static } from "@sinclair/typebox";
import type { FilesTable } from "../db/schema.js";
import type { FileDeletedSchema, FileListSchema, FileObjectSchema } from "./file-object-schema.js";

export type FileObject = Static<typeof FileObjectSchema>;
export type FileList = Static<typeof FileListSchema>;
export type FileDeleted = Static<typeof FileDeletedSchema>;

export type FileRow = Omit<FilesTable, "seq">;

export function toFileObject(row: FileRow): FileObject {
  return {
    id: row.id,
    object: "file",
    bytes: row.bytes,
    created_at: row.created_at,
    filename: row.filename,
    purpose: row.purpose,
    status: row.status,
    expires_at: row.expires_at,
    status_details: row.status_details,
  };
}
