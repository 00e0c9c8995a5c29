import { batchCreateBody, createBatchAs, uploadFileAs } from "../../support/owned-objects.js";
import type { RouteSecurity } from "../../support/route-checks.js";
import type { TestOrg, TestServer } from "../../support/server.js";

const ownedBatch = async (server: TestServer, owner: TestOrg) => ({
  batch_id: await createBatchAs(server, owner),
});
const ownedFile = async (server: TestServer, owner: TestOrg) => ({
  file_id: await uploadFileAs(server, owner),
});

/** The batch routes under `prefix`, as the route security checks send them; no worker may run. */
export const batchesSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/batches`,
    ownedBy: ownedFile,
    body: (ids) => batchCreateBody(ids.file_id ?? ""),
  },
  { method: "GET", path: `${prefix}/batches` },
  {
    method: "GET",
    path: `${prefix}/batches`,
    query: (ids) => ({ after: ids.batch_id ?? "" }),
    ownedBy: ownedBatch,
  },
  {
    method: "GET",
    path: `${prefix}/batches/{batch_id}`,
    ownedBy: ownedBatch,
  },
  {
    method: "POST",
    path: `${prefix}/batches/{batch_id}/cancel`,
    ownedBy: ownedBatch,
  },
];
