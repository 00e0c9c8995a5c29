/** A backtest that cannot go on: bad input files, a refused request, an --out of another run. */
export class BacktestError extends Error {
  override readonly name = "BacktestError";
}
