import { V1_PREFIXES } from "../support/http.js";
import { batchCreateBody, createBatchAs, uploadFileAs } from "../support/owned-objects.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import type { TestOrg, TestServer } from "../support/server.js";

// No batch worker runs here, so every batch stays `validating` and can be cancelled.
const target = routeSecurityServer();
const ownedBatch = async (server: TestServer, owner: TestOrg) => ({
  batch_id: await createBatchAs(server, owner),
});
const ownedFile = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadFileAs(server, owner),
});

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/batches`,
    ownedBy: ownedFile,
    body: (ids) => batchCreateBody(ids.file_id ?? ""),
  });
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/batches` });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/batches`,
    query: (ids) => ({ after: ids.batch_id ?? "" }),
    ownedBy: ownedBatch,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/batches/{batch_id}`,
    ownedBy: ownedBatch,
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/batches/{batch_id}/cancel`,
    ownedBy: ownedBatch,
  });
}
