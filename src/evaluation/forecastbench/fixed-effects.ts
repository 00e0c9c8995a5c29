/** One forecaster's Brier score on one question. */
export interface ScoreCell {
  forecaster: string;
  question: string;
  brier: number;
}

const MAX_SWEEPS = 10_000;
const TOLERANCE = 1e-13;

/**
 * The panel of a two-way fixed-effects model brier = a_forecaster + b_question, indexed once so
 * that it can be solved again with questions weighted (a bootstrap draw counts a question as often
 * as it was drawn, which is what fitting its copies as separate questions amounts to).
 */
export class FixedEffectsPanel {
  readonly questions: string[];
  private readonly questionOf: Int32Array;
  private readonly forecasterOf: Int32Array;
  private readonly brier: Float64Array;
  private readonly forecasterCount: number;
  private readonly cellsPerQuestion: Float64Array;

  constructor(cells: ScoreCell[]) {
    const questionIndex = new Map<string, number>();
    const forecasterIndex = new Map<string, number>();
    this.questionOf = new Int32Array(cells.length);
    this.forecasterOf = new Int32Array(cells.length);
    this.brier = new Float64Array(cells.length);
    cells.forEach((cell, i) => {
      if (!questionIndex.has(cell.question)) questionIndex.set(cell.question, questionIndex.size);
      if (!forecasterIndex.has(cell.forecaster)) {
        forecasterIndex.set(cell.forecaster, forecasterIndex.size);
      }
      this.questionOf[i] = questionIndex.get(cell.question) ?? 0;
      this.forecasterOf[i] = forecasterIndex.get(cell.forecaster) ?? 0;
      this.brier[i] = cell.brier;
    });
    this.questions = [...questionIndex.keys()];
    this.forecasterCount = forecasterIndex.size;
    this.cellsPerQuestion = new Float64Array(this.questions.length);
    for (const q of this.questionOf) this.cellsPerQuestion[q] = (this.cellsPerQuestion[q] ?? 0) + 1;
  }

  /**
   * The question effects (in `questions` order) by least squares, what
   * `pyfixest.feols("brier ~ 1 | question_pk + model_pk")` fits, through alternating projections:
   * each sweep sets every effect to the (weighted) mean residual of its rows, which converges to
   * the least-squares solution. They are known up to one constant shared by every question; the
   * rescaling to Always 0.5 cancels it. `start` (an earlier solution) shortens the sweeps.
   */
  solve(
    weights: Float64Array | null = null,
    start: Float64Array | null = null,
    tolerance = TOLERANCE,
  ): Float64Array {
    const questionEffect = start === null ? new Float64Array(this.questions.length) : start.slice();
    const forecasterEffect = new Float64Array(this.forecasterCount);
    const sums = new Float64Array(Math.max(this.questions.length, this.forecasterCount));
    const counts = new Float64Array(this.forecasterCount);
    for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      let change = 0;
      sums.fill(0);
      counts.fill(0);
      for (let i = 0; i < this.brier.length; i++) {
        const q = this.questionOf[i] ?? 0;
        const w = weights === null ? 1 : (weights[q] ?? 0);
        if (w === 0) continue;
        const f = this.forecasterOf[i] ?? 0;
        sums[f] = (sums[f] ?? 0) + w * ((this.brier[i] ?? 0) - (questionEffect[q] ?? 0));
        counts[f] = (counts[f] ?? 0) + w;
      }
      for (let f = 0; f < this.forecasterCount; f++) {
        const n = counts[f] ?? 0;
        if (n === 0) continue;
        const next = (sums[f] ?? 0) / n;
        change = Math.max(change, Math.abs(next - (forecasterEffect[f] ?? 0)));
        forecasterEffect[f] = next;
      }
      sums.fill(0);
      for (let i = 0; i < this.brier.length; i++) {
        const q = this.questionOf[i] ?? 0;
        const f = this.forecasterOf[i] ?? 0;
        sums[q] = (sums[q] ?? 0) + (this.brier[i] ?? 0) - (forecasterEffect[f] ?? 0);
      }
      for (let q = 0; q < this.questions.length; q++) {
        const next = (sums[q] ?? 0) / (this.cellsPerQuestion[q] ?? 1);
        change = Math.max(change, Math.abs(next - (questionEffect[q] ?? 0)));
        questionEffect[q] = next;
      }
      if (change < tolerance) break;
    }
    return questionEffect;
  }
}

/** The question effects of the two-way fixed-effects model, by question (see FixedEffectsPanel). */
export function questionFixedEffects(cells: ScoreCell[]): Map<string, number> {
  const panel = new FixedEffectsPanel(cells);
  const effects = panel.solve();
  return new Map(panel.questions.map((question, i) => [question, effects[i] ?? 0]));
}
