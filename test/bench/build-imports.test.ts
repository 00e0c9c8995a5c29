/**
 * The bench loads the server's modules from the build by path strings (`fromBuild("x.js")`) that
 * the type checker cannot follow; each names its source module in the type argument. A moved
 * module must fail here, not at the start of `npm run bench`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const BENCH = path.resolve("bench");
const BUILD_IMPORT = /fromBuild<\s*typeof import\("\.\.\/src\/([^"]+)"\)\s*>\(\s*"([^"]+)"\s*\)/g;

function buildImports(): { file: string; source: string; built: string }[] {
  return readdirSync(BENCH)
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) =>
      [...readFileSync(path.join(BENCH, name), "utf8").matchAll(BUILD_IMPORT)].map((match) => ({
        file: name,
        source: match[1] ?? "",
        built: match[2] ?? "",
      })),
    );
}

describe("bench imports from the build", () => {
  const imports = buildImports();

  it("finds the bench's build imports", () => {
    expect(imports.length).toBeGreaterThanOrEqual(8);
  });

  it.each(imports)("$file loads $built, the build of src/$source", ({ source, built }) => {
    expect(built).toBe(source);
    expect(existsSync(path.resolve("src", source.replace(/\.js$/, ".ts")))).toBe(true);
  });
});
