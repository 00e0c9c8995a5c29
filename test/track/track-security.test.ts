import { randomBytes } from "node:crypto";
import { V1_PREFIXES } from "../support/http.js";
import {
  createCalibrationAs,
  keptEvaluationAs,
  resolvedForecastsAs,
} from "../support/owned-objects.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import type { TestOrg, TestServer } from "../support/server.js";
import { call } from "./support/track-api.js";

const target = routeSecurityServer();

/** A new question of the owner's: `question_id`. */
async function ownedQuestion(server: TestServer, owner: TestOrg) {
  const id = `security-question-${randomBytes(6).toString("hex")}`;
  const response = await call(server.url, owner.apiKey, "POST", "/v1/questions", {
    id,
    answer_type: "binary",
    tags: ["security"],
  });
  if (response.status !== 200) throw new Error(`question: ${JSON.stringify(response.body)}`);
  return { question_id: id };
}

/** A calibration of the owner's: `calibration_id`. */
async function ownedCalibration(server: TestServer, owner: TestOrg) {
  return { calibration_id: await createCalibrationAs(server, owner) };
}

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/questions`,
    body: () => ({ id: `new-${randomBytes(6).toString("hex")}`, answer_type: "binary" }),
  });
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/questions` });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/questions`,
    query: (ids) => ({ after: ids.question_id ?? "" }),
    ownedBy: ownedQuestion,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/questions/{question_id}`,
    ownedBy: ownedQuestion,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/scores`,
    query: () => ({ group_by: "tag", from: "2025-01-01" }),
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/questions/{question_id}/resolution`,
    body: () => ({ outcome: 1 }),
    ownedBy: ownedQuestion,
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/calibrations`,
    body: () => ({ model: "sibyl-baseline" }),
    // The owner's resolved forecasts, which the fit reads: another organization has none.
    ownedBy: async (server, owner) => {
      await resolvedForecastsAs(server, owner);
      return {};
    },
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/calibrations`,
    body: (ids) => ({ model: "sibyl-baseline", evaluation: ids.evaluation_id }),
    // The owner's kept backtest: another organization's is a 404, as an unknown one is.
    ownedBy: async (server, owner) => ({ evaluation_id: await keptEvaluationAs(server, owner) }),
  });
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/calibrations` });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/calibrations`,
    query: (ids) => ({ after: ids.calibration_id ?? "" }),
    ownedBy: ownedCalibration,
  });
  describeRouteSecurity(target, {
    method: "GET",
    path: `${prefix}/calibrations/{calibration_id}`,
    ownedBy: ownedCalibration,
  });
}
