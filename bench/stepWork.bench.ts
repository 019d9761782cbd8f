/**
 * The other half of W1's floor: the work of one agent tool step with no actor
 * at all — the scripted model's stream, the request with the system prompt,
 * the call's validation and execution (`executeToolCall`, the agent's own),
 * the transcript and the step's five run events on an RxJS Subject. Read
 * W1 against `xstateFloor` + this: what the actors add is the difference.
 */
import type { Message, RunEvent, ToolCall } from '@agentchart/core';
import { Subject, lastValueFrom, toArray } from 'rxjs';
import { executeToolCall } from '../packages/actors/src/agent/machine/executeToolCall.js';
import { LiveToolSet } from '../packages/actors/src/agent/tools/liveTools.js';
import { STEPS_PER_RUN, w1Model, w1Tools as tools } from './w1Workload.js';

const TOOL_STEPS = 10_000;
const model = w1Model();

async function run(): Promise<void> {
  const events = new Subject<RunEvent>();
  const seen = events.subscribe(() => undefined);
  const live = new LiveToolSet(tools);
  const controller = new AbortController();
  const env = {
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    liveTools: live,
    middleware: [],
    detailedErrors: false,
    agentName: 'bench',
    runId: 'run',
    step: 0,
    signal: () => controller.signal,
    stateFor: () => {
      throw new Error('not used');
    },
    onToolsChanged: () => undefined,
    onProgress: () => undefined,
  };
  let messages: Message[] = [{ role: 'user', content: 'go' }];
  for (let step = 1; ; step++) {
    const request = {
      messages: [{ role: 'system' as const, content: 'Benchmark.' }, ...messages],
      tools: live.list().map((tool) => tool.spec),
      toolChoice: 'auto' as const,
    };
    events.next({ type: 'model.request', runId: 'run', agent: 'bench', step, tools: request.tools.map((tool) => tool.name), toolChoice: 'auto' });
    const replyEvents = await lastValueFrom(model.stream(request).pipe(toArray()));
    const calls: ToolCall[] = [];
    for (const event of replyEvents) if (event.type === 'tool-call') calls.push(event.call);
    const reply: Message = { role: 'assistant', content: '', toolCalls: calls };
    messages = [...messages, reply];
    events.next({ type: 'message', runId: 'run', agent: 'bench', message: reply });
    if (calls.length === 0) break;
    for (const call of calls) {
      events.next({ type: 'tool.call', runId: 'run', agent: 'bench', step, call });
      const outcome = await executeToolCall(call, { ...env, step });
      events.next({
        type: 'tool.result',
        runId: 'run',
        agent: 'bench',
        step,
        callId: call.id,
        toolName: call.name,
        content: outcome.content,
        isError: outcome.isError,
      });
      const message: Message = { role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content };
      messages = [...messages, message];
      events.next({ type: 'message', runId: 'run', agent: 'bench', message });
    }
  }
  seen.unsubscribe();
}

async function steps(count: number): Promise<void> {
  for (let done = 0; done < count; done += STEPS_PER_RUN) await run();
}

export async function runBenchmark(): Promise<void> {
  await steps(2_000);
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await steps(TOOL_STEPS);
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(
    `a tool step's own work, no actors: ${(elapsedUs / TOOL_STEPS).toFixed(1)} µs wall, ${((cpu.user + cpu.system) / TOOL_STEPS).toFixed(1)} µs CPU ` +
      `(W1's workload; ${TOOL_STEPS} tool steps)`,
  );
}
