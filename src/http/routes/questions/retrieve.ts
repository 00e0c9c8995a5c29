import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { QuestionDetailSchema, QuestionParams } from "../../schemas/questions.js";

export function registerRetrieveQuestionRoute(app: App, services: Services): void {
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
}
