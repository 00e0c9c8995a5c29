import { createHash, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { BacktestError } from "../errors.js";
import { writeFileAtomic } from "./atomic-file.js";

export const STATE_FILE = "state.json";

/** A model's batch, as far as it got; saved after every step so a re-run picks up there. */
export interface ModelBatchState {
  input_sha256: string;
  input_file_id: string | null;
  batch_id: string | null;
  status: string | null;
  /** Output and error files are saved in --out. */
  downloaded: boolean;
}

export interface RunState {
  version: 1;
  run_id: string;
  /** What was asked: the same --out only resumes the same questions, models and options. */
  fingerprint: string;
  endpoint: string;
  questions_file: string;
  resolutions_file: string | null;
  options: {
    models: string[];
    research: boolean;
    samples: number;
    limit: number | null;
    /** The --limit sample's seed; absent in runs from before sampling was seeded. */
    seed?: number;
  };
  /** Each model's organization as the endpoint lists it (`owned_by`), for submission files. */
  model_organizations?: Record<string, string>;
  created_at: string;
  /** The balance before the first batch, for "spent so far"; null where there is no balance. */
  balance_start_usd: number | null;
  models: Record<string, ModelBatchState>;
}

export function fingerprintOf(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export async function readState(outDir: string): Promise<RunState | null> {
  let text: string;
  try {
    text = await readFile(path.join(outDir, STATE_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const state = JSON.parse(text) as RunState;
    if (state.version !== 1 || typeof state.run_id !== "string") throw new Error("version");
    return state;
  } catch {
    throw new BacktestError(`${path.join(outDir, STATE_FILE)} is not a backtest state file`);
  }
}

export function newState(
  fields: Omit<RunState, "version" | "run_id" | "created_at" | "models">,
): RunState {
  return {
    version: 1,
    run_id: randomUUID(),
    created_at: new Date().toISOString(),
    models: {},
    ...fields,
  };
}

/** Saves the state whole, one write at a time, in the order the changes were made. */
export class StateStore {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly state: RunState,
    private readonly outDir: string,
  ) {}

  save(): Promise<void> {
    const snapshot = JSON.stringify(this.state, null, 2);
    const file = path.join(this.outDir, STATE_FILE);
    this.writing = this.writing.then(() => writeFileAtomic(file, `${snapshot}\n`));
    return this.writing;
  }
}
