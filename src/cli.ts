#!/usr/bin/env node
import "./runtime-flags.js";
import { runCli } from "./cli/run.js";

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
// A failed start may leave timers or sockets behind; the process ends with the failure anyway.
if (code !== 0) process.exit(code);
process.exitCode = code;
