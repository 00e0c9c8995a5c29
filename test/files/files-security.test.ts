import {
  evaluationForm,
  evaluationSummary,
  uploadEvaluationFile,
} from "../support/evaluation-uploads.js";
import { V1_PREFIXES } from "../support/http.js";
import { batchUploadForm, uploadFileAs } from "../support/owned-objects.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import type { TestOrg, TestServer } from "../support/server.js";

const target = routeSecurityServer();
const ownedFile = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadFileAs(server, owner),
});

/** A backtest report of the owner's, which a summary upload may name. */
const ownedReport = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadEvaluationFile(server.url, owner, "<h1>report</h1>", "report.html"),
});

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/files`,
    body: (ids) =>
      evaluationForm(
        JSON.stringify(evaluationSummary({ report_html: ids.file_id ?? null })),
        "summary.json",
      ),
    ownedBy: ownedReport,
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/files`,
    body: () => batchUploadForm(),
  });
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/files` });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/files`,
    query: (ids) => ({ after: ids.file_id ?? "" }),
    ownedBy: ownedFile,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/files/{file_id}`,
    ownedBy: ownedFile,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/files/{file_id}/content`,
    ownedBy: ownedFile,
  });
  describeRouteSecurity(target, {
    method: "DELETE",
    path: `${prefix}/files/{file_id}`,
    ownedBy: ownedFile,
  });
}
