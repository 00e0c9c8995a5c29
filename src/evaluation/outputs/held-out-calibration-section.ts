import type { Summary } from "../summary.js";
import { escapeXml } from "./escape.js";
import { number, table } from "./html-table.js";

/** The `--calibrate` section: each model's map and the held-out half scored raw and calibrated. */
export function heldOutCalibrationSection(summary: Summary): string {
  const calibration = summary.held_out_calibration;
  if (!calibration) return "";
  const rows = Object.entries(calibration.models).map(([model, entry]) => [
    model,
    String(entry.fit_n),
    String(entry.held_out_n),
    entry.method ?? "–",
    entry.cross_validated ? (entry.cross_validated.improved ? "yes" : "no") : "–",
    number(entry.held_out_brier_raw),
    number(entry.held_out_brier_calibrated),
    entry.note ?? "",
  ]);
  return `<section id="held-out-calibration">
<h2>Calibration fitted on half the questions, scored on the other half</h2>
<p class="note">${escapeXml(`${calibration.statement} Seed ${calibration.seed}: ${calibration.fit_questions} questions to fit, ${calibration.held_out_questions} held out.`)}</p>
${table(
  [
    "model",
    "fitted on",
    "held out",
    "method",
    "improved (cross-validated)",
    "held-out Brier, raw",
    "held-out Brier, calibrated",
    "note",
  ],
  rows,
)}
</section>`;
}
