import type { Api } from "./client";
import type {
  ApiKey,
  Balance,
  Batch,
  ChatCompletion,
  CreatedApiKey,
  EvaluationSummary,
  FileObject,
  KeyChanges,
  LedgerEntry,
  LedgerKind,
  List,
  Model,
  NewKeyRequest,
  UsageBucket,
  UsagePage,
} from "./types";

/** The organization API's paths (src/http/routes/organization*.ts). */
const KEYS = "/v1/organization/api_keys";
const USAGE = "/v1/organization/usage/completions";
const LEDGER = "/v1/organization/ledger";

/** The longest range the usage pages are read over, in days. */
const MAX_USAGE_DAYS = 366;

export const balance = (api: Api) => api.get<Balance>("/v1/balance");
export const models = (api: Api) => api.get<List<Model>>("/v1/models");

export async function allKeys(api: Api): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.get<List<ApiKey>>(KEYS, { limit: 100, after });
    keys.push(...page.data);
    if (!page.has_more || !page.last_id) return keys;
    after = page.last_id;
  }
}

export const createKey = (api: Api, request: NewKeyRequest) =>
  api.post<CreatedApiKey>(KEYS, request);

export const updateKey = (api: Api, id: string, changes: KeyChanges) =>
  api.post<ApiKey>(`${KEYS}/${encodeURIComponent(id)}`, changes);

export const revokeKey = (api: Api, id: string) =>
  api.delete<{ id: string }>(`${KEYS}/${encodeURIComponent(id)}`);

export interface UsageFilter {
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds, exclusive. */
  end: number;
  groupBy: ("model" | "api_key_id")[];
  models?: string[];
  apiKeyIds?: string[];
}

/** Every day of the range, following the pages. */
export async function usage(api: Api, filter: UsageFilter): Promise<UsageBucket[]> {
  const buckets: UsageBucket[] = [];
  let page: string | undefined;
  while (buckets.length < MAX_USAGE_DAYS) {
    const answer = await api.get<UsagePage>(USAGE, {
      start_time: filter.start,
      end_time: filter.end,
      bucket_width: "1d",
      group_by: filter.groupBy,
      models: filter.models,
      api_key_ids: filter.apiKeyIds,
      limit: 31,
      page,
    });
    buckets.push(...answer.data);
    if (!answer.has_more || !answer.next_page) break;
    page = answer.next_page;
  }
  return buckets;
}

export const files = (api: Api) => api.get<List<FileObject>>("/v1/files", { limit: 100 });
export const deleteFile = (api: Api, id: string) =>
  api.delete<{ id: string }>(`/v1/files/${encodeURIComponent(id)}`);
export const fileContent = (api: Api, id: string) =>
  api.blob(`/v1/files/${encodeURIComponent(id)}/content`);

export const fileText = async (api: Api, id: string) => (await fileContent(api, id)).text();

/** One page of the ledger, newest first; `after` is the last entry of the page before. */
export const ledger = (api: Api, after: string | undefined, kind: LedgerKind | undefined) =>
  api.get<List<LedgerEntry>>(LEDGER, { limit: 25, after, kind });

/** A backtest kept on the server: its summary file and what the summary says. */
export interface Evaluation {
  file: FileObject;
  summary: EvaluationSummary;
}

/** How many of the newest backtests the Evaluations page reads. */
const EVALUATIONS_SHOWN = 20;

/** The newest backtests `sibyl eval run` kept on the server, newest first. */
export async function evaluations(api: Api): Promise<Evaluation[]> {
  const list = await api.get<List<FileObject>>("/v1/files", {
    purpose: "evaluation",
    limit: 3 * EVALUATIONS_SHOWN,
  });
  const summaries = list.data
    .filter((file) => file.filename.toLowerCase().endsWith(".json"))
    .slice(0, EVALUATIONS_SHOWN);
  return Promise.all(
    summaries.map(async (file) => ({
      file,
      summary: JSON.parse(await fileText(api, file.id)) as EvaluationSummary,
    })),
  );
}

export const batches = (api: Api, after?: string) =>
  api.get<List<Batch>>("/v1/batches", { limit: 20, after });
export const cancelBatch = (api: Api, id: string) =>
  api.post<Batch>(`/v1/batches/${encodeURIComponent(id)}/cancel`);

export interface PlaygroundRequest {
  model: string;
  question: string;
  answerType: string;
  predictionDate: string;
}

export const complete = (api: Api, request: PlaygroundRequest) =>
  api.post<ChatCompletion>("/v1/chat/completions", {
    model: request.model,
    messages: [{ role: "user", content: request.question }],
    ...(request.answerType ? { answer_type: request.answerType } : {}),
    ...(request.predictionDate ? { prediction_date: request.predictionDate } : {}),
  });
