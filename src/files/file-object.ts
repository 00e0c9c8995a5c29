import type { FilePurpose, FileStatus, FilesTable } from "../db/schema.js";

/** Interface 2.12. */
export interface FileObject {
  id: string;
  object: "file";
  bytes: number;
  created_at: number;
  filename: string;
  purpose: FilePurpose;
  status: FileStatus;
  expires_at: number | null;
  status_details: string | null;
}

export interface FileList {
  object: "list";
  data: FileObject[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

export interface FileDeleted {
  id: string;
  object: "file";
  deleted: true;
}

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
