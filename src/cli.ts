#!/usr/bin/env node
import "./runtime-flags.js";
import { runCli } from "./cli/run.js";

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
