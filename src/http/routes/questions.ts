import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import type { QuestionInput, ResolutionInput } from "../../track/questions-service.js";
import type { App } from "../app-instance.js";
import { adminOf, principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import {
  QuestionCreateRequestSchema,
  QuestionDetailSchema,
  QuestionListQuerySchema,
  QuestionListSchema,
  QuestionObjectSchema,
  QuestionParams,
  ResolutionRequestSchema,
} from "../schemas/questions.js";

/** The track record's questions (docs/track-record.md). */
export function registerQuestionRoutes(app: App, services: Services): void {
  app.post(
    "/questions",
    {
      schema: {
        summary: "Register a question",
        description:
          "Sibyl's track record: registers a question ahead of its forecasts. A request with `question_id` and `answer_type` registers its question itself when it is new.",
        tags: ["track record"],
        body: Type.Ref(QuestionCreateRequestSchema),
        response: withErrors({ 200: Type.Ref(QuestionObjectSchema), 409: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) =>
      services.questions.create(principalOf(request).organizationId, request.body as QuestionInput),
  );

  app.get(
    "/questions",
    {
      schema: {
        summary: "List questions, newest first",
        tags: ["track record"],
        querystring: QuestionListQuerySchema,
        response: withErrors({ 200: Type.Ref(QuestionListSchema), 404: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) => services.questions.list(principalOf(request).organizationId, request.query),
  );

  app.get(
    "/questions/:question_id",
    {
      schema: {
        summary: "Retrieve a question with its forecasts and resolutions",
        tags: ["track record"],
        params: QuestionParams,
        response: withErrors({
          200: Type.Ref(QuestionDetailSchema),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      services.questions.retrieve(principalOf(request).organizationId, request.params.question_id),
  );

  app.post(
    "/questions/:question_id/resolution",
    {
      schema: {
        summary: "Resolve a question",
        description:
          "Needs an `admin` key. Sets the outcome (or annuls the question) and scores its forecasts. The same resolution again changes nothing; a different one is a 409 unless `force` is true, and every resolution stays in the question's history. A resolution dated before a forecast's prediction date is refused (409).",
        tags: ["track record"],
        params: QuestionParams,
        body: Type.Ref(ResolutionRequestSchema),
        response: withErrors({
          200: Type.Ref(QuestionDetailSchema),
          403: Type.Ref(ErrorResponse),
          404: Type.Ref(ErrorResponse),
          409: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const admin = adminOf(request, "resolving questions");
      return services.questions.resolve(
        admin.organizationId,
        request.params.question_id,
        request.body as ResolutionInput,
        admin.keyId,
      );
    },
  );
}
