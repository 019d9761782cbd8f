import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const runner = fileURLToPath(new URL('../../packages/examples/src/runExample.ts', import.meta.url));

describe('pnpm example a2a', () => {
  it('streams a task of the three-agent chat to the SDK client, approves deploy in the same task, and completes', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', runner, 'a2a'], { timeout: 50_000 });
    expect(
      stdout
        .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
        .trimEnd()
        .split('\n'),
    ).toEqual([
      'Agent Card at http://127.0.0.1:PORT/a2a/release_team/.well-known/agent-card.json: release_team, skills planner, engineer, reviewer, streaming true',
      '',
      'client → message/stream "Ship v2."',
      '  task TASK_STATE_SUBMITTED',
      '  status TASK_STATE_WORKING: planner speaks (round 1)',
      '  status TASK_STATE_WORKING: planner: Plan: run the checks, then deploy v2.',
      '  status TASK_STATE_WORKING: engineer speaks (round 2)',
      '  status TASK_STATE_WORKING: engineer calls run_checks',
      '  status TASK_STATE_WORKING: engineer: run_checks done: all 12 checks green',
      '  status TASK_STATE_WORKING: engineer calls deploy',
      '  status TASK_STATE_INPUT_REQUIRED: Waiting for approval: deploy (deploy-1). Answer with one data part per call: { "approve": "<callId>" } or { "reject": "<callId>", "reason": "…" }. {"pending":[{"callId":"deploy-1","toolName":"deploy","arguments":{"version":"v2"}}]}',
      '',
      'client → message/stream in the same task: { "approve": "deploy-1" }',
      '  task TASK_STATE_WORKING',
      '  status TASK_STATE_WORKING: engineer: deploy done: deployed v2',
      '  status TASK_STATE_WORKING: engineer: Checks green; v2 is deployed.',
      '  status TASK_STATE_WORKING: reviewer speaks (round 3)',
      '  status TASK_STATE_WORKING: reviewer: Reviewed: the v2 release is done.',
      '  artifact "answer": Reviewed: the v2 release is done.',
      '  status TASK_STATE_COMPLETED: Reviewed: the v2 release is done.',
      '',
      'client → tasks/get: TASK_STATE_COMPLETED, answer "Reviewed: the v2 release is done."',
    ]);
  });
});
