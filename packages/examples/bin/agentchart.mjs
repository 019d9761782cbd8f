#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2] === 'check-model' ? '../src/cli/checkModel/main.ts' : '../src/cli/main.ts');
