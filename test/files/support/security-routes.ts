import {
  evaluationForm,
  evaluationSummary,
  uploadEvaluationFile,
} from "../../support/evaluation-uploads.js";
import { batchUploadForm, uploadFileAs } from "../../support/owned-objects.js";
import type { RouteSecurity } from "../../support/route-checks.js";
import type { TestOrg, TestServer } from "../../support/server.js";

const ownedFile = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadFileAs(server, owner),
});

/** A backtest report of the owner's, which a summary upload may name. */
const ownedReport = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadEvaluationFile(server.url, owner, "<h1>report</h1>", "report.html"),
});

/** The files routes under `prefix`, as the route security checks send them. */
export const filesSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/files`,
    body: (ids) =>
      evaluationForm(
        JSON.stringify(evaluationSummary({ report_html: ids.file_id ?? null })),
        "summary.json",
      ),
    ownedBy: ownedReport,
  },
  {
    method: "POST",
    path: `${prefix}/files`,
    body: () => batchUploadForm(),
  },
  { method: "GET", path: `${prefix}/files` },
  {
    method: "GET",
    path: `${prefix}/files`,
    query: (ids) => ({ after: ids.file_id ?? "" }),
    ownedBy: ownedFile,
  },
  {
    method: "GET",
    path: `${prefix}/files/{file_id}`,
    ownedBy: ownedFile,
  },
  {
    method: "GET",
    path: `${prefix}/files/{file_id}/content`,
    ownedBy: ownedFile,
  },
  {
    method: "DELETE",
    path: `${prefix}/files/{file_id}`,
    ownedBy: ownedFile,
  },
];
