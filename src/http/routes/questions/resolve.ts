import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { ResolutionInput } from "../../../track/resolution-steps.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import {
  QuestionDetailSchema,
  QuestionParams,
  ResolutionRequestSchema,
} from "../../schemas/questions.js";

export function registerResolveQuestionRoute(app: App, services: Services): void {
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
