import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that start no server, process or database, open no socket or temporary file and
 * change no process state (environment, listeners, timers, globals): pure functions over data.
 * They share worker threads and their imports instead of a fresh process each, which spares a
 * process start and a module graph per file. A file that starts to need a server or process state
 * must leave this list: it then runs isolated, as every file not listed does.
 */
const PURE = [
  "test/forecast/**/*.test.ts",
  "test/answers/held-out.test.ts",
  "test/completions/ensemble-aggregate.test.ts",
  "test/conformance/validator.test.ts",
  "test/evaluation/{aggregation,calibration-plot,forecastbench-figures,leak-check}.test.ts",
  "test/evaluation/{progress,sample,scoring}.test.ts",
  "test/bench/build-imports.test.ts",
  "test/billing/money.test.ts",
  "test/cli/node-engines.test.ts",
  "test/db/fragment-compiler.test.ts",
  "test/http/{http-validation,json-value-budget,route-validators}.test.ts",
  "test/util/abort-listeners.test.ts",
  "test/inference/{baseline,bpe-merge,bpe-o200k,bpe-tiktoken-file}.test.ts",
  "test/inference/{openai-failures-unit,sse,token-estimate,tokens}.test.ts",
  "test/research/adversarial/{corpus,properties}.test.ts",
  "test/research/dates/grammar.test.ts",
  "test/research/providers/{catalogue,dates,plain-text}.test.ts",
  "test/research/query-and-urls.test.ts",
  "test/responses/translation.test.ts",
  "test/track/recalibration-fit.test.ts",
];

/**
 * Test files that change what every later file in their process would see: environment variables,
 * process listeners, fake timers, or figures of the whole process (memory). Under the root's
 * `isolate: false` they share a process too (a project's own isolate setting is not honoured:
 * measured), so each restores what it changes in its own hooks; listed apart to keep them known.
 */
const PROCESS_STATE = [
  "test/util/ids.test.ts",
  "test/completions/client-disconnect.test.ts",
  "test/files/upload-malformed.test.ts",
  "test/files/s3-store.test.ts",
  "test/payments/chain-identity.test.ts",
  "test/inference/bpe-memory.test.ts",
];

// The reliability suite runs on its own (vitest.reliability.config.ts).
const EXCLUDED = [
  ...configDefaults.exclude,
  "test/reliability/**",
  "test/scale-out/multi-process.test.ts",
];

export default defineConfig({
  test: {
    // Set here, not per project: vitest 3 groups files of one pool across projects and honours
    // only this root value when it does (a project's own `isolate: false` changed nothing).
    isolate: false,
    // Both cores: most files wait on sockets, child processes and PostgreSQL as much as they
    // compute. Tests that bound a cost measure CPU time, which the second worker does not stretch.
    maxWorkers: 2,
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: { name: "pure", include: PURE, exclude: EXCLUDED, pool: "threads" },
      },
      {
        extends: true,
        test: {
          name: "process-state",
          include: PROCESS_STATE,
          exclude: EXCLUDED,
          pool: "forks",
        },
      },
      {
        extends: true,
        test: {
          // Servers, databases and child processes: each file starts and closes its own, so
          // files share worker processes and the modules they import instead of a process each.
          name: "servers",
          include: ["test/**/*.test.ts"],
          exclude: [...EXCLUDED, ...PURE, ...PROCESS_STATE],
          pool: "forks",
        },
      },
    ],
  },
});
