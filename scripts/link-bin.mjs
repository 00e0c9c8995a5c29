// Makes `npx sibyl` work inside a checkout: npm links the bins of dependencies, not the
// package's own, so link dist/cli.js into node_modules/.bin after each build.
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const target = path.join(root, "dist", "cli.js");
const binDir = path.join(root, "node_modules", ".bin");
const link = path.join(binDir, "sibyl");

chmodSync(target, 0o755);
if (existsSync(path.join(root, "node_modules"))) {
  mkdirSync(binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(path.relative(binDir, target), link);
}
