import { createBatchWorker } from "../../../src/cli/worker.js";
import { OpenApiContract } from "../../support/openapi-contract.js";
import {
  createBatchAs,
  createCalibrationAs,
  createQuestionAs,
  uploadFileAs,
} from "../../support/owned-objects.js";
import { createTestDatabase } from "../../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../../support/server.js";
import type { KnownIds } from "./arbitraries/paths.js";
import { CapturedLog, productionLogger } from "./captured-log.js";
import { RunSecrets } from "./run-secrets.js";

/** Production's default `server.log_level`. */
const LOG_LEVEL = "info";

/** Everything a fuzzing run works against: a real server on PostgreSQL, and who owns what. */
export interface FuzzWorld {
  server: TestServer;
  contract: OpenApiContract;
  log: CapturedLog;
  secrets: RunSecrets;
  /** The organization the requests come from. */
  caller: TestOrg;
  /** Another organization, whose objects the caller must never reach. */
  stranger: TestOrg;
  /** An organization whose key was revoked. */
  revoked: TestOrg;
  files: KnownIds;
  batches: KnownIds;
  /** Spare keys: the organization API may revoke them, never the caller's own. */
  keys: KnownIds;
  questions: KnownIds;
  calibrations: KnownIds;
  close(): Promise<void>;
}

const OBJECTS_PER_ORGANIZATION = 4;

async function ownedObjects(server: TestServer, org: TestOrg) {
  const files: string[] = [];
  const batches: string[] = [];
  const keys: string[] = [];
  const questions: string[] = [];
  const calibrations: string[] = [];
  for (let i = 0; i < OBJECTS_PER_ORGANIZATION; i++) {
    questions.push(await createQuestionAs(server, org, `q-${org.organizationId}-${i}`));
    files.push(await uploadFileAs(server, org));
    batches.push(await createBatchAs(server, org));
    keys.push((await server.services.apiKeys.issue(org.organizationId)).api_key_id);
    calibrations.push(await createCalibrationAs(server, org));
  }
  return { files, batches, keys, questions, calibrations };
}

/**
 * The server as `sibyl serve` runs it (HTTP and a batch worker, production logging) on a fresh
 * PostgreSQL database, with the rate limit lifted so thousands of requests stay admissible.
 */
export async function startFuzzWorld(): Promise<FuzzWorld> {
  const database = await createTestDatabase();
  const log = new CapturedLog();
  const server = await startTestServer({
    databaseUrl: database.url,
    logger: productionLogger(LOG_LEVEL, log),
    config: {
      server: { log_level: LOG_LEVEL },
      limits: { requests_per_minute: 1_000_000 },
    },
  });
  const worker = createBatchWorker(server.services, server.app.log);
  const secrets = new RunSecrets();
  const caller = await server.createOrg("50");
  const stranger = await server.createOrg("5");
  const revoked = await server.createOrg("1");
  await server.services.apiKeys.revoke(revoked.apiKeyId);
  for (const org of [caller, stranger, revoked]) secrets.addApiKey(org.apiKey);
  const own = await ownedObjects(server, caller);
  const foreign = await ownedObjects(server, stranger);
  return {
    server,
    contract: await OpenApiContract.fetch(server.url),
    log,
    secrets,
    caller,
    stranger,
    revoked,
    files: { own: own.files, foreign: foreign.files },
    batches: { own: own.batches, foreign: foreign.batches },
    keys: { own: own.keys, foreign: foreign.keys },
    questions: { own: own.questions, foreign: foreign.questions },
    calibrations: { own: own.calibrations, foreign: foreign.calibrations },
    close: async () => {
      await worker.stop();
      await server.close();
      await database.drop();
    },
  };
}
