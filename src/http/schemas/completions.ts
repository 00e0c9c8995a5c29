export {
  ChatCompletionResponseSchema,
  CompletionResponseSchema,
  ForecastReadingSchema,
  ResearchReportSchema,
  UrlCitationAnnotationSchema,
  UsageSchema,
} from "../../completions/response-schema.js";
