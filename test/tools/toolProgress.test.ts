import { createAgent } from '@agentchart/actors';
import { ConfigurationError, type RunEvent, type ToolContext, defineTool, directToolContext } from '@agentchart/core';
import { checkToolProgress } from '@agentchart/core/internal';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('ctx.reportProgress: tool.progress run events', () => {
  it('each report of a running call is a tool.progress event between its tool.call and tool.result', async () => {
    let late: ToolContext | undefined;
    const upload = defineTool({
      name: 'upload',
      description: 'Uploads files.',
      parameters: z.object({ files: z.array(z.string()) }),
      execute: async ({ files }, ctx) => {
        for (const [index, file] of files.entries()) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          ctx.reportProgress({ progress: index + 1, total: files.length, message: `uploaded ${file}` });
        }
        late = ctx;
        return 'uploaded';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'u1', name: 'upload', arguments: { files: ['a.txt', 'b.txt'] } }] }, { text: 'Done.' }]);
    const run = createAgent({ name: 'uploader', model, tools: [upload] }).run('Upload a.txt and b.txt.');
    const events = firstValueFrom(run.events$.pipe(toArray()));
    await run.result;
    late?.reportProgress({ progress: 3 }); // after the call returned: dropped
    const all = await events;
    const base = { type: 'tool.progress', runId: run.runId, agent: 'uploader', step: 1, callId: 'u1', toolName: 'upload', total: 2 };
    expect(all.filter((event) => event.type === 'tool.progress')).toEqual([
      { ...base, progress: 1, message: 'uploaded a.txt' },
      { ...base, progress: 2, message: 'uploaded b.txt' },
    ]);
    const order = all.map((event: RunEvent) => event.type).filter((type) => type.startsWith('tool.'));
    expect(order).toEqual(['tool.call', 'tool.progress', 'tool.progress', 'tool.result']);
  });

  it('a report that is not a finite number is a ConfigurationError for the tool (an error result the model reads)', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Reports nonsense.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.reportProgress({ progress: Number.NaN });
        return 'never';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'broken', arguments: {} }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'a', model, tools: [broken] }).run('Go.').result;
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.content).toBe(
      'Tool "broken" failed: Tool "broken" called ctx.reportProgress with {"progress":null}: give { progress: <number>, total?: <number>, message?: <string> } with finite numbers.',
    );
  });

  it('a long message is cut to 1,000 characters; outside a run a report is checked, then dropped', () => {
    const ctx = directToolContext({ toolName: 'upload' });
    expect(() => ctx.reportProgress({ progress: 1, total: 2, message: 'x'.repeat(5000) })).not.toThrow();
    expect(() => ctx.reportProgress({ progress: 1, total: Number.POSITIVE_INFINITY })).toThrow(ConfigurationError);
    expect(checkToolProgress({ progress: 1, message: 'x'.repeat(5000) }, 'upload').message).toHaveLength(1000);
  });
});
