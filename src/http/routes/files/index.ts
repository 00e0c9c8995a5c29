import multipart from "@fastify/multipart";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { registerFileContentRoute } from "./content.js";
import { registerDeleteFileRoute } from "./delete.js";
import { registerListFilesRoute } from "./list.js";
import { registerRetrieveFileRoute } from "./retrieve.js";
import { registerUploadFileRoute } from "./upload.js";

/** The Files API, one operation per module. */
export async function registerFileRoutes(app: App, services: Services): Promise<void> {
  await app.register(multipart);
  registerUploadFileRoute(app, services);
  registerListFilesRoute(app, services);
  registerRetrieveFileRoute(app, services);
  registerFileContentRoute(app, services);
  registerDeleteFileRoute(app, services);
}
