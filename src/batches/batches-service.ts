import type { Db } from "../db/database.js";
import { cursorSeq, listPage } from "../db/list-pages.js";
import type { BatchStatus } from "../db/schema.js";
import { notFound, ServiceError } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { isWellFormedId, newId } from "../util/ids.js";
import { type AdmissionDeps, admitBatch } from "./batch-admission.js";
import { BatchCosts } from "./batch-costs.js";
import {
  type BatchList,
  type BatchObject,
  type BatchRow,
  isTerminal,
  toBatchObject,
} from "./batch-object.js";
import { findBatch, insertBatch, listBatches, tallyLines, transition } from "./batch-records.js";

/** A batch to create, as `POST /v1/batches` receives it. */
export interface BatchCreateInput {
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata?: Record<string, string> | null;
  output_expires_after?: { anchor: string; seconds: number } | null;
}

const COMPLETION_WINDOW_SECONDS = 24 * 3600;
const CANCELLABLE: readonly BatchStatus[] = ["validating", "in_progress"];

/**
 * The Batch API: creating, reading, listing and cancelling batches of one
 * organization. The work itself is done by BatchWorker, which `listen` lets it hear about early.
 */
export class Batches {
  private readonly listeners = new Set<() => void>();
  private readonly costs: BatchCosts;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Reads the input file at creation to refuse a batch a line of which could not run. */
    private readonly admission: AdmissionDeps | null = null,
  ) {
    this.costs = new BatchCosts(db);
  }

  /** Called after every create and cancel, so a worker in this process reacts at once. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Accepts the batch unless a line of it could not run for want of credits (402) or of room
   * under the key's spend limit (403); its input file is then checked asynchronously (status
   * `validating`). Its lines spend under `apiKeyId`, the key that created it: they count against
   * that key's spend limit and their usage is recorded under it.
   */
  async create(
    organizationId: string,
    apiKeyId: string,
    input: BatchCreateInput,
  ): Promise<BatchObject> {
    if (!isWellFormedId(input.input_file_id)) {
      throw notFound("file", input.input_file_id, "input_file_id");
    }
    if (this.admission) {
      await admitBatch(this.admission, organizationId, apiKeyId, input.input_file_id);
    }
    const createdAt = unixSeconds(this.clock);
    const id = newId("batch_");
    await insertBatch(this.db, {
      id,
      organization_id: organizationId,
      endpoint: input.endpoint,
      input_file_id: input.input_file_id,
      completion_window: input.completion_window,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      output_expires_after: input.output_expires_after?.seconds ?? null,
      created_at: createdAt,
      expires_at: createdAt + COMPLETION_WINDOW_SECONDS,
      api_key_id: apiKeyId,
    });
    this.announce();
    return this.retrieve(organizationId, id);
  }

  async retrieve(organizationId: string, id: string): Promise<BatchObject> {
    const row = await findBatch(this.db, organizationId, id);
    if (!row) throw notFound("batch", id, "batch_id");
    return (await this.present(organizationId, [row]))[0] as BatchObject;
  }

  /** Newest first; `after` is the id of the last batch of the previous page. */
  async list(
    organizationId: string,
    query: { after?: string | undefined; limit: number },
  ): Promise<BatchList> {
    const beforeSeq = await cursorSeq(this.db, "batches", organizationId, query.after);
    const rows = await listBatches(this.db, organizationId, beforeSeq, query.limit);
    const data = await this.present(organizationId, rows.slice(0, query.limit));
    return listPage(data, rows.length > query.limit);
  }

  /**
   * `validating`/`in_progress` → `cancelling`; the worker ends it as `cancelled` once running
   * lines finish. Cancelling again is a no-op; a batch that has finished cannot be cancelled.
   */
  async cancel(organizationId: string, id: string): Promise<BatchObject> {
    for (;;) {
      const row = await findBatch(this.db, organizationId, id);
      if (!row) throw notFound("batch", id, "batch_id");
      if (row.status === "cancelling" || row.status === "cancelled") {
        return (await this.present(organizationId, [row]))[0] as BatchObject;
      }
      if (!CANCELLABLE.includes(row.status)) {
        throw new ServiceError(
          "conflict",
          `Batch '${id}' is ${row.status} and can no longer be cancelled.`,
          { code: "batch_not_cancellable", param: "batch_id" },
        );
      }
      if (await transition(this.db, id, row.status, "cancelling", unixSeconds(this.clock))) {
        this.announce();
        return this.retrieve(organizationId, id);
      }
    }
  }

  private async present(organizationId: string, rows: BatchRow[]): Promise<BatchObject[]> {
    const live = rows.filter((row) => !isTerminal(row.status)).map((row) => row.id);
    const tallies = await tallyLines(this.db, live);
    const costs = await this.costs.of(organizationId, rows);
    return rows.map((row) =>
      toBatchObject(row, tallies.get(row.id) ?? null, costs.get(row.id) ?? 0),
    );
  }

  private announce(): void {
    for (const listener of this.listeners) listener();
  }
}
