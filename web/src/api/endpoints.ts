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
  Question,
  QuestionDetail,
  ScoreReport,
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
  const read = await Promise.all(
    summaries.map(async (file) => ({
      file,
      summary: JSON.parse(await fileText(api, file.id)) as EvaluationSummary,
    })),
  );
  // A resumed or re-reported run uploads its files again: one evaluation per run, its newest.
  const seen = new Set<string>();
  return read.filter(({ summary }) => {
    const run = summary.run.run_id;
    if (run === undefined) return true;
    if (seen.has(run)) return false;
    seen.add(run);
    return true;
  });
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
  /** Research sources to ask; none: no research. */
  researchSources: string[];
  /** low, medium or high; "" leaves it to the model. */
  reasoningEffort: string;
  /** 1: a single call; 2–16: an ensemble. */
  samples: number;
  aggregate: string;
}

export const complete = (api: Api, request: PlaygroundRequest) =>
  api.post<ChatCompletion>("/v1/chat/completions", {
    model: request.model,
    messages: [{ role: "user", content: request.question }],
    ...(request.answerType ? { answer_type: request.answerType } : {}),
    ...(request.predictionDate ? { prediction_date: request.predictionDate } : {}),
    ...(request.researchSources.length > 0
      ? { research: { sources: request.researchSources } }
      : {}),
    ...(request.reasoningEffort ? { reasoning_effort: request.reasoningEffort } : {}),
    ...(request.samples > 1
      ? { ensemble: { samples: request.samples, aggregate: request.aggregate } }
      : {}),
  });

export type ScoreGrouping = "model" | "api_key" | "tag";

/** The track record's scores of resolved forecasts, one entry per group, and by period. */
export const scores = (api: Api, groupBy: ScoreGrouping, bucket: "week" | "month") =>
  api.get<ScoreReport>("/v1/scores", { group_by: groupBy, bucket });

/** How many questions a page of the track record lists. */
const QUESTIONS_PER_PAGE = 20;

/** A question of the track record with how many forecasts it has. */
export interface QuestionWithForecasts {
  question: Question;
  forecasts: number;
  /** More forecasts than the question's detail lists. */
  truncated: boolean;
  /** The newest forecast; null without forecasts, or when the detail lists only the earliest. */
  latest: QuestionDetail["forecasts"][number] | null;
}

export interface QuestionPage {
  questions: QuestionWithForecasts[];
  hasMore: boolean;
  lastId: string | null;
}

/**
 * One page of questions, newest first; `after` is the last question of the page before. The
 * list does not count forecasts, so each question's detail is read for its count.
 */
export async function questionPage(api: Api, after: string | undefined): Promise<QuestionPage> {
  const page = await api.get<List<Question>>("/v1/questions", {
    limit: QUESTIONS_PER_PAGE,
    after,
  });
  const questions = await Promise.all(
    page.data.map(async (question) => {
      const detail = await api.get<QuestionDetail>(
        `/v1/questions/${encodeURIComponent(question.id)}`,
      );
      return {
        question,
        forecasts: detail.forecasts.length,
        truncated: detail.forecasts_truncated,
        latest: detail.forecasts_truncated ? null : (detail.forecasts.at(-1) ?? null),
      };
    }),
  );
  return { questions, hasMore: page.has_more === true, lastId: page.last_id ?? null };
}
