import { randomBytes } from "node:crypto";
import {
  createCalibrationAs,
  keptEvaluationAs,
  resolvedForecastsAs,
} from "../../support/owned-objects.js";
import type { RouteSecurity } from "../../support/route-checks.js";
import type { TestOrg, TestServer } from "../../support/server.js";
import { call } from "./track-api.js";

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

/** The track record routes under `prefix`, as the route security checks send them. */
export const trackSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/questions`,
    body: () => ({ id: `new-${randomBytes(6).toString("hex")}`, answer_type: "binary" }),
  },
  { method: "GET", path: `${prefix}/questions` },
  {
    method: "GET",
    path: `${prefix}/questions`,
    query: (ids) => ({ after: ids.question_id ?? "" }),
    ownedBy: ownedQuestion,
  },
  {
    method: "GET",
    path: `${prefix}/questions/{question_id}`,
    ownedBy: ownedQuestion,
  },
  {
    method: "GET",
    path: `${prefix}/scores`,
    query: () => ({ group_by: "tag", from: "2025-01-01" }),
  },
  {
    method: "POST",
    path: `${prefix}/questions/{question_id}/resolution`,
    body: () => ({ outcome: 1 }),
    ownedBy: ownedQuestion,
  },
  {
    method: "POST",
    path: `${prefix}/calibrations`,
    body: () => ({ model: "sibyl-baseline" }),
    // The owner's resolved forecasts, which the fit reads: another organization has none.
    ownedBy: async (server, owner) => {
      await resolvedForecastsAs(server, owner);
      return {};
    },
  },
  {
    method: "POST",
    path: `${prefix}/calibrations`,
    body: (ids) => ({ model: "sibyl-baseline", evaluation: ids.evaluation_id }),
    // The owner's kept backtest: another organization's is a 404, as an unknown one is.
    ownedBy: async (server, owner) => ({ evaluation_id: await keptEvaluationAs(server, owner) }),
  },
  { method: "GET", path: `${prefix}/calibrations` },
  {
    method: "GET",
    path: `${prefix}/calibrations`,
    query: (ids) => ({ after: ids.calibration_id ?? "" }),
    ownedBy: ownedCalibration,
  },
  {
    method: "GET",
    path: `${prefix}/calibrations/{calibration_id}`,
    ownedBy: ownedCalibration,
  },
];
