import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { QuestionInput } from "../../../track/questions-service.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { QuestionCreateRequestSchema, QuestionObjectSchema } from "../../schemas/questions.js";

export function registerCreateQuestionRoute(app: App, services: Services): void {
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
}
