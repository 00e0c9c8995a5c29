import type { PlaygroundRequest } from "../api/endpoints";

/** What the playground form holds; `model` is "" until one is picked (the first is then used). */
export interface AskSettings {
  model: string;
  answerType: string;
  /** A calendar day (yyyy-mm-dd) or "" for today. */
  predictionDate: string;
  question: string;
  sources: string[];
  effort: string;
  samples: number;
  aggregate: string;
}

export type UpdateSetting = <K extends keyof AskSettings>(key: K, value: AskSettings[K]) => void;

export const DEFAULT_SETTINGS: AskSettings = {
  model: "",
  answerType: "binary",
  predictionDate: "",
  question: "",
  sources: [],
  effort: "",
  samples: 1,
  aggregate: "median",
};

export function toRequest(settings: AskSettings, model: string): PlaygroundRequest {
  return {
    model,
    question: settings.question,
    answerType: settings.answerType,
    predictionDate: settings.predictionDate ? `${settings.predictionDate}T00:00:00Z` : "",
    researchSources: settings.sources,
    reasoningEffort: settings.effort,
    samples: settings.samples,
    aggregate: settings.aggregate,
  };
}
