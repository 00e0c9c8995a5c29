/** Response shapes of the routes the dashboard calls (src/http/schemas, organization-schemas). */

export interface Balance {
  balance_dollars: number;
}

export interface Model {
  id: string;
  name?: string;
  pricing?: Record<string, string>;
}

export interface List<T> {
  object: "list";
  data: T[];
  first_id?: string | null;
  last_id?: string | null;
  has_more?: boolean;
}

export type KeyScope = "admin" | "inference";

export interface ApiKey {
  id: string;
  name: string | null;
  redacted_value: string;
  scope: KeyScope;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  spend_limit_usd: number | null;
}

export interface CreatedApiKey extends ApiKey {
  value: string;
}

export interface NewKeyRequest {
  name: string | null;
  scope: KeyScope;
  expires_at: number | null;
  spend_limit_usd: number | null;
}

export interface UsageResult {
  num_model_requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  model: string | null;
  api_key_id: string | null;
}

export interface UsageBucket {
  start_time: number;
  end_time: number;
  results: UsageResult[];
}

export interface UsagePage {
  object: "page";
  data: UsageBucket[];
  has_more: boolean;
  next_page: string | null;
}

export interface FileObject {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status?: string;
  expires_at?: number | null;
}

export type BatchStatus =
  | "validating"
  | "failed"
  | "in_progress"
  | "finalizing"
  | "completed"
  | "expired"
  | "cancelling"
  | "cancelled";

export interface Batch {
  id: string;
  status: BatchStatus;
  input_file_id: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  created_at: number;
  completed_at?: number | null;
  model?: string | null;
  request_counts?: { total: number; completed: number; failed: number };
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  errors?: { data: { code: string | null; message: string | null; line: number | null }[] } | null;
}

export interface ChatCompletion {
  id: string;
  model: string;
  choices: { index: number; message: { content: string; thinking?: string | null } }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cost_usd?: number | null;
  } | null;
}
