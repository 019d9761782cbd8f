#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
