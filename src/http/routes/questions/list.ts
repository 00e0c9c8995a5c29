import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";
import { QuestionListQuerySchema, QuestionListSchema } from "../../schemas/questions.js";

export function registerListQuestionsRoute(app: App, services: Services): void {
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
}
