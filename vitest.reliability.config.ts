import { defineConfig } from "vitest/config";

/** `npm run test:reliability`: fuzzing and log scans against a real server, after `npm test`. */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts", "test/scale-out/multi-process.test.ts"],
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
