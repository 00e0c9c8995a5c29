import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { registerCreateQuestionRoute } from "./create.js";
import { registerListQuestionsRoute } from "./list.js";
import { registerResolveQuestionRoute } from "./resolve.js";
import { registerRetrieveQuestionRoute } from "./retrieve.js";

/** The track record's questions (docs/track-record.md), one operation per module. */
export function registerQuestionRoutes(app: App, services: Services): void {
  registerCreateQuestionRoute(app, services);
  registerListQuestionsRoute(app, services);
  registerRetrieveQuestionRoute(app, services);
  registerResolveQuestionRoute(app, services);
}
