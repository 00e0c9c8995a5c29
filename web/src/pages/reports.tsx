/** Backtests run on the operator's or researcher's machine; the server keeps no reports. */
export function Reports() {
  return (
    <section className="card prose" aria-labelledby="reports-heading">
      <h2 id="reports-heading">Evaluation reports are made on your machine</h2>
      <p>
        Backtests run with <code>sibyl eval run</code>, a client of this API: it sends ForecastBench
        questions through the batch API (you can watch its batches on the Batches page) and writes
        its report to a folder of your choosing. This server does not keep evaluation reports, so
        none are listed here.
      </p>
      <pre>
        <code>
          {
            "SIBYL_API_KEY=sk_… sibyl eval run --questions questions.json \\\n  --resolutions resolutions.json --model sibyl-baseline --out backtest/"
          }
        </code>
      </pre>
      <p>
        Open <code>backtest/report.html</code> in a browser for the scores and the calibration plot;{" "}
        <code>summary.json</code>, <code>forecasts.jsonl</code> and the ForecastBench submission
        files sit beside it. <code>sibyl eval report --out backtest/</code> scores a finished
        backtest again.
      </p>
    </section>
  );
}
