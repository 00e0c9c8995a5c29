import { pipeline, type Readable, Transform } from "node:stream";
import type { Db } from "../db/database.js";
import { cursorSeq, listPage } from "../db/list-pages.js";
import type { FilePurpose } from "../db/schema.js";
import { invalidRequest, notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { BlobNotFoundError, type BlobStore } from "./blob-store.js";
import {
  checkEvaluationSize,
  checkEvaluationSummary,
  evaluationFileKind,
  isEvaluationSummary,
  MAX_EVALUATION_BYTES,
  streamText,
} from "./evaluation-files.js";
import {
  type FileDeleted,
  type FileList,
  type FileObject,
  type FileRow,
  toFileObject,
} from "./file-object.js";
import {
  deleteExpiredFileRow,
  deleteFileRow,
  expiredFileIds,
  findFile,
  insertFile,
  listFiles,
} from "./file-records.js";
import { sweepOrphanBlobs } from "./orphan-blobs.js";
import { parseUploadFields } from "./upload-form.js";
import { type JsonLinesVerdict, UploadInspector } from "./upload-inspector.js";

export const MAX_FILE_BYTES = 200 * 1024 * 1024;

/** One part of an upload form, in the order the client sent them. */
export type UploadPart =
  | { kind: "field"; name: string; value: string }
  | { kind: "file"; name: string; filename: string; stream: Readable };

export interface FileListQuery {
  purpose?: FilePurpose | undefined;
  after?: string | undefined;
  limit: number;
  order: "asc" | "desc";
}

const SWEEP_BATCH = 500;

const FILE_ID_PREFIX = "file-";

/** Far longer than any upload or batch finalize takes between writing a blob and its row. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface FilesOptions {
  maxBytes?: number;
  /** How old a blob without a row must be before the sweeper deletes it. */
  orphanGraceMs?: number;
}

/** Errors reach the store through the last stream of each pipeline; nothing more to do here. */
const ignoreError = () => undefined;

/** The Files API: uploads streamed to the blob store, listed, read and deleted per organization. */
export class Files {
  private readonly maxBytes: number;
  private readonly orphanGraceMs: number;
  /** Listing the whole store is costly, and orphans only become eligible once per grace period. */
  private nextOrphanSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly clock: Clock,
    options: FilesOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
    this.orphanGraceMs = options.orphanGraceMs ?? ORPHAN_GRACE_MS;
  }

  /** Stores an upload; a `batch` file must be JSON Lines, an `evaluation` file a backtest's output. */
  async upload(organizationId: string, parts: AsyncIterable<UploadPart>): Promise<FileObject> {
    const id = newId(FILE_ID_PREFIX);
    const fields = new Map<string, string>();
    let stored: { filename: string; inspector: UploadInspector } | null = null;
    try {
      for await (const part of parts) {
        if (part.kind === "field") {
          fields.set(part.name, part.value);
          continue;
        }
        if (part.name !== "file" || stored) {
          part.stream.resume();
          throw invalidRequest(
            `Unexpected file field '${part.name}': send exactly one file, in the field 'file'.`,
            "invalid_file_field",
            part.name,
          );
        }
        // When the purpose comes first, an evaluation file is cut off at its own, lower limit.
        const evaluation = fields.get("purpose") === "evaluation";
        const inspector = new UploadInspector(
          evaluation ? Math.min(this.maxBytes, MAX_EVALUATION_BYTES) : this.maxBytes,
        );
        stored = { filename: part.filename, inspector };
        await this.store.put(id, pipeline(part.stream, inspector, ignoreError));
      }
      if (!stored) {
        throw invalidRequest(
          "Missing required form field 'file'.",
          "missing_required_parameter",
          "file",
        );
      }
      const form = parseUploadFields(fields);
      if (form.purpose === "batch") checkJsonLines(stored.inspector.verdict());
      else await this.checkEvaluation(organizationId, id, stored.filename, stored.inspector.bytes);
      const createdAt = unixSeconds(this.clock);
      const row: FileRow = {
        id,
        organization_id: organizationId,
        purpose: form.purpose,
        // PostgreSQL cannot store a NUL character in text.
        filename: stored.filename.replaceAll("\u0000", "") || "upload.jsonl",
        bytes: stored.inspector.bytes,
        status: "processed",
        status_details: null,
        created_at: createdAt,
        expires_at: form.expiresAfterSeconds === null ? null : createdAt + form.expiresAfterSeconds,
      };
      await insertFile(this.db, row);
      return toFileObject(row);
    } catch (error) {
      if (stored) await this.store.delete(id).catch(() => undefined);
      throw error;
    }
  }

  /** An evaluation file of a known kind and size; a summary must be one `sibyl eval` wrote. */
  private async checkEvaluation(
    organizationId: string,
    id: string,
    filename: string,
    bytes: number,
  ): Promise<void> {
    const kind = evaluationFileKind(filename);
    checkEvaluationSize(kind, bytes);
    if (kind !== "summary") return;
    const now = unixSeconds(this.clock);
    await checkEvaluationSummary(await this.store.get(id), async (fileId) => {
      const file = await findFile(this.db, organizationId, fileId, now);
      return file?.purpose === "evaluation";
    });
  }

  async retrieve(organizationId: string, id: string): Promise<FileObject> {
    return toFileObject(await this.require(organizationId, id));
  }

  async list(organizationId: string, query: FileListQuery): Promise<FileList> {
    const afterSeq = await cursorSeq(this.db, "files", organizationId, query.after);
    const rows = await listFiles(this.db, {
      organizationId,
      now: unixSeconds(this.clock),
      purpose: query.purpose,
      afterSeq,
      limit: query.limit,
      order: query.order,
    });
    return listPage(rows.slice(0, query.limit).map(toFileObject), rows.length > query.limit);
  }

  /** The file's bytes as a stream. */
  async content(organizationId: string, id: string): Promise<{ file: FileObject; body: Readable }> {
    const row = await this.require(organizationId, id);
    try {
      return { file: toFileObject(row), body: await this.store.get(id) };
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw notFound("file", id, "file_id");
      throw error;
    }
  }

  async delete(organizationId: string, id: string): Promise<FileDeleted> {
    await this.require(organizationId, id);
    if (!(await deleteFileRow(this.db, organizationId, id))) throw notFound("file", id, "file_id");
    await this.store.delete(id);
    return { id, object: "file", deleted: true };
  }

  /** A live file's bytes for the batch engine, or null when the organization has no such file. */
  async open(
    organizationId: string,
    id: string,
  ): Promise<{ file: FileObject; body: Readable } | null> {
    const row = await findFile(this.db, organizationId, id, unixSeconds(this.clock));
    if (!row) return null;
    try {
      return { file: toFileObject(row), body: await this.store.get(id) };
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
  }

  /**
   * The text of a backtest summary `sibyl eval run` kept (an `evaluation` file named `.json`), or
   * null when the organization has no live summary with this id.
   */
  async evaluationSummary(organizationId: string, id: string): Promise<string | null> {
    const row = await findFile(this.db, organizationId, id, unixSeconds(this.clock));
    if (!row || !isEvaluationSummary(row)) return null;
    try {
      return await streamText(await this.store.get(id));
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Stores bytes under a new file id without a row yet; the caller records the row (with
   * `fileRow`) in its own transaction, so a crash leaves at most an unreferenced blob.
   */
  async writeBlob(source: Readable): Promise<{ id: string; bytes: number }> {
    const id = newId(FILE_ID_PREFIX);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await this.store.put(id, pipeline(source, counter, ignoreError));
    return { id, bytes };
  }

  async discardBlob(id: string): Promise<void> {
    await this.store.delete(id);
  }

  /**
   * Deletes expired files, row first so a file is never visible without its bytes, then blobs
   * that no row references. Returns how many files and blobs it removed.
   */
  async sweepExpired(): Promise<number> {
    const now = unixSeconds(this.clock);
    let removed = 0;
    for (const id of await expiredFileIds(this.db, now, SWEEP_BATCH)) {
      if (await deleteExpiredFileRow(this.db, id, now)) {
        await this.store.delete(id);
        removed += 1;
      }
    }
    return removed + (await this.sweepOrphans());
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private async sweepOrphans(): Promise<number> {
    const now = this.clock.now();
    if (now < this.nextOrphanSweep) return 0;
    this.nextOrphanSweep = now + this.orphanGraceMs;
    return sweepOrphanBlobs({
      db: this.db,
      store: this.store,
      keyPrefix: FILE_ID_PREFIX,
      cutoff: now - this.orphanGraceMs,
    });
  }

  private async require(organizationId: string, id: string): Promise<FileRow> {
    const row = await findFile(this.db, organizationId, id, unixSeconds(this.clock));
    if (!row) throw notFound("file", id, "file_id");
    return row;
  }
}

function checkJsonLines(verdict: JsonLinesVerdict): void {
  if (!verdict.valid) {
    throw invalidRequest(
      `A 'batch' file must be JSON Lines (one JSON object per line), but line ${verdict.line} ${verdict.reason}.`,
      "invalid_file_format",
      "file",
    );
  }
  if (verdict.lines === 0) {
    throw invalidRequest(
      "A 'batch' file must hold at least one request line; this one is empty.",
      "invalid_file_format",
      "file",
    );
  }
}
