/**
 * Fails when modules under the given folders import each other in a cycle (type-only imports
 * included): a cycle means two modules cannot be read, tested or moved apart.
 * Usage: node scripts/import-cycles.mjs src web/src
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/g;

function sourceFiles(folder) {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Each file's relative imports that resolve to a file in the set. */
function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), match[1]).replace(/\.js$/, "");
      const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => known.has(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan), each one cycle or more. */
function cycles(graph) {
  const order = new Map();
  const reach = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (file) => {
    order.set(file, next);
    reach.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!order.has(target)) {
        visit(target);
        reach.set(file, Math.min(reach.get(file), reach.get(target)));
      } else if (onStack.has(target)) {
        reach.set(file, Math.min(reach.get(file), order.get(target)));
      }
    }
    if (reach.get(file) !== order.get(file)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

const folders = process.argv.slice(2).map((folder) => path.resolve(folder));
const found = cycles(importGraph(folders.flatMap(sourceFiles)));
for (const group of found) {
  console.error(`import cycle among: ${group.map((file) => path.relative(".", file)).join(", ")}`);
}
process.exit(found.length > 0 ? 1 : 0);
