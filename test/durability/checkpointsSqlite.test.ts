import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeCheckpoints } from './checkpointSuite.js';

const dir = mkdtempSync(join(tmpdir(), 'agentchart-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'runs.db');

describeCheckpoints('SQLite', (clock) => createSqliteRunStore({ path, now: clock.now }));
