import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npx pnpm@12.4.2 example ag-ui', () => {
  it('runs the three-agent chat through HttpAgent, the interrupt and its resume', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'packages/examples/src/runExample.ts'), 'ag-ui'], {
      cwd: root,
    });
    const types = stdout
      .split('\n')
      .filter((line) => /^[A-Z_]+ \{/.test(line))
      .map((line) => line.split(' ')[0]);
    expect(types.filter((type) => type === 'RUN_STARTED')).toHaveLength(2);
    expect(stdout).toContain('"outcome":{"type":"interrupt","interrupts":[{"id":"trip/run-1#approval:call_0_0","reason":"tool_approval"');
    expect(stdout).toContain('STATE_DELTA {"delta":[{"op":"add","path":"/spent","value":40}]}');
    expect(stdout).toContain('"result":{"reason":"max-rounds","lastSpeaker":"critic","rounds":3},"outcome":{"type":"success"}}');
    expect(stdout).toContain(
      'thread: user: Book the train. | planner: Book the 40 train tickets. | payer: Paying 40. | tool: paid 40 | payer: Paid. | critic: Within budget. Done.',
    );
    expect(types).toEqual([
      ...[
        'RUN_STARTED',
        'STATE_SNAPSHOT',
        'CUSTOM',
        'STEP_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'STEP_FINISHED',
      ],
      ...[
        'CUSTOM',
        'STEP_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
      ],
      ...['STEP_FINISHED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED'],
      ...['RUN_STARTED', 'STATE_SNAPSHOT', 'STEP_STARTED', 'CUSTOM', 'STATE_DELTA', 'TOOL_CALL_RESULT', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT'],
      ...[
        'TEXT_MESSAGE_END',
        'STEP_FINISHED',
        'CUSTOM',
        'STEP_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'STEP_FINISHED',
      ],
      ...['MESSAGES_SNAPSHOT', 'RUN_FINISHED'],
    ]);
  });
});
