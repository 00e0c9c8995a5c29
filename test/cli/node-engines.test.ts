import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

interface LockedPackage {
  version?: string;
  engines?: Record<string, string> | string[];
  dev?: boolean;
}

describe("the Node.js version the project states", () => {
  const stated = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
  const oldest = semver.minVersion(stated)?.version as string;

  it("is the one the README gives", () => {
    expect(oldest).toBe("20.19.0");
    expect(read("README.md")).toContain("Node.js 20.19 or newer");
  });

  it("satisfies every installed package, so npm install warns of no engine", () => {
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, LockedPackage>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([location]) => location !== "")
      .flatMap(([location, locked]) => {
        const engines = locked.engines;
        const range = engines && !Array.isArray(engines) ? engines.node : undefined;
        if (range === undefined || semver.satisfies(oldest, range)) return [];
        return [`${location}@${locked.version} requires node ${range}`];
      });
    expect(refusing).toEqual([]);
  });
});
