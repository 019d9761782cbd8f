#!/usr/bin/env node
// The installed `agentchart` command: the package's built JavaScript.
import { runCli } from '../dist/index.js';

process.exitCode = await runCli(process.argv.slice(2));
