import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability suite runs on its own (vitest.reliability.config.ts).
    exclude: [
      ...configDefaults.exclude,
      "test/reliability/**",
      "test/scale-out/multi-process.test.ts",
    ],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
