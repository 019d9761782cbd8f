import { request } from 'node:http';
import { type A2aServer, serveA2a } from '@agentchart/a2a';
import { afterEach, describe, expect, it } from 'vitest';
import { asTask, clientFor, collect, data, partsOf, stateName, taskIdOf, text, userMessage } from './a2aClients.js';
import { type ToolLog, greeter, releaseTeam, reviewDesk, slowWorker } from './a2aTeams.js';

let server: A2aServer | undefined;

/** The status of a GET sent with this Host header (fetch does not let a page set it; a rebinding page's browser does). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('serveA2a: the Agent Card', () => {
  it('describes a chat by its members and an agent by its instructions, streaming, with the JSON-RPC interface at the base URL', async () => {
    server = await serveA2a({ agents: [greeter()], chats: [releaseTeam()] });
    const chatCard = await (await clientFor(server.urlOf('release_team'))).getAgentCard();
    expect(chatCard.name).toBe('release_team');
    expect(chatCard.description).toBe('Plans, ships and reviews a release.');
    expect(chatCard.capabilities?.streaming).toBe(true);
    expect(chatCard.skills.map((skill) => [skill.id, skill.description])).toEqual([
      ['planner', 'Plans the release.'],
      ['engineer', 'Runs the checks and deploys.'],
      ['reviewer', 'Reviews what was shipped.'],
    ]);
    expect(chatCard.supportedInterfaces.map((entry) => [entry.url, entry.protocolBinding, entry.protocolVersion])).toEqual([
      [server.urlOf('release_team'), 'JSONRPC', '1.0'],
      [server.urlOf('release_team'), 'JSONRPC', '0.3'],
    ]);
    const agentCard = await (await clientFor(server.urlOf('greeter'))).getAgentCard();
    expect([agentCard.name, agentCard.description, agentCard.skills.map((skill) => skill.description)]).toEqual([
      'greeter',
      'Greets people by name.',
      ['Greets people by name.'],
    ]);
    expect(server.urlOf('greeter')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/greeter\/$/);
  });

  it('answers an unknown name with HTTP 404 and a Host that is not its own with 421', async () => {
    server = await serveA2a({ agents: [greeter()] });
    const unknown = await fetch(`${server.url}nobody/.well-known/agent-card.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(server.urlOf('greeter'));
    const rpc = await fetch(`${server.url}nobody/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(rpc.status).toBe(404);
    const { port } = new URL(server.url);
    expect(await statusWithHost(`${server.urlOf('greeter')}.well-known/agent-card.json`, `attacker.example:${port}`)).toBe(421);
    expect(await statusWithHost(`${server.urlOf('greeter')}.well-known/agent-card.json`, `localhost:${port}`)).toBe(200);
  });
});

describe('serveA2a: tasks', () => {
  it('completes a sent message with the final answer as an artifact, and getTask returns it', async () => {
    server = await serveA2a({ agents: [greeter()] });
    const client = await clientFor(server.urlOf('greeter'));
    const task = asTask(await client.sendMessage(userMessage([text('Greet Ada.')])));
    expect(stateName(task.status?.state)).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts.map((artifact) => [artifact.artifactId, partsOf(artifact.parts)])).toEqual([['answer', ['Hello, Ada!']]]);
    const again = await client.getTask({ tenant: '', id: task.id });
    expect([again.id, stateName(again.status?.state), partsOf(again.artifacts[0]?.parts)]).toEqual([
      task.id,
      'TASK_STATE_COMPLETED',
      ['Hello, Ada!'],
    ]);
  });

  it('streams a chat: the speakers and tools as working updates, the approval as input-required, then the answer and the final status', async () => {
    const log: ToolLog = [];
    server = await serveA2a({ chats: [releaseTeam(log)] });
    const client = await clientFor(server.urlOf('release_team'));
    const first = await collect(client.sendMessageStream(userMessage([text('Ship v2.')])));
    const ids = taskIdOf(first.events);
    expect(first.lines).toEqual([
      'task TASK_STATE_SUBMITTED',
      'status TASK_STATE_WORKING: planner speaks (round 1) | {"event":"speaker","speaker":"planner","round":1}',
      'status TASK_STATE_WORKING: planner: Plan: run the checks, then deploy v2. | {"event":"turn","speaker":"planner","round":1,"text":"Plan: run the checks, then deploy v2."}',
      'status TASK_STATE_WORKING: engineer speaks (round 2) | {"event":"speaker","speaker":"engineer","round":2}',
      expect.stringMatching(/^status TASK_STATE_WORKING: engineer calls run_checks \| /),
      expect.stringMatching(/^status TASK_STATE_WORKING: engineer: run_checks done: all 12 checks green \| /),
      expect.stringMatching(/^status TASK_STATE_WORKING: engineer calls deploy \| /),
      expect.stringMatching(/^status TASK_STATE_INPUT_REQUIRED: Waiting for approval: deploy \(deploy-1\)\. Answer with one data part per call/),
    ]);
    const waiting = first.events.at(-1)?.payload;
    if (waiting?.$case !== 'statusUpdate') throw new Error('expected a status update');
    const pending = (partsOf(waiting.value.status?.message?.parts)[1] as { pending: { callId: string; toolName: string; arguments: unknown }[] })
      .pending;
    expect(pending.map(({ toolName, arguments: args }) => ({ toolName, args }))).toEqual([{ toolName: 'deploy', args: { version: 'v2' } }]);
    expect(log).toEqual(['run_checks']);

    const second = await collect(client.sendMessageStream(userMessage([data({ approve: pending[0]!.callId })], ids)));
    expect(second.lines).toEqual([
      'task TASK_STATE_WORKING',
      expect.stringMatching(/^status TASK_STATE_WORKING: engineer: deploy done: deployed v2 \| /),
      'status TASK_STATE_WORKING: engineer: Checks green; deploy of v2 handled. | {"event":"turn","speaker":"engineer","round":2,"text":"Checks green; deploy of v2 handled."}',
      'status TASK_STATE_WORKING: reviewer speaks (round 3) | {"event":"speaker","speaker":"reviewer","round":3}',
      'status TASK_STATE_WORKING: reviewer: Reviewed: v2 release is done. | {"event":"turn","speaker":"reviewer","round":3,"text":"Reviewed: v2 release is done."}',
      'artifact answer: Reviewed: v2 release is done.',
      'status TASK_STATE_COMPLETED: Reviewed: v2 release is done.',
    ]);
    expect(log).toEqual(['run_checks', 'deploy v2']);
    const done = await client.getTask({ tenant: '', id: ids.taskId });
    expect(stateName(done.status?.state)).toBe('TASK_STATE_COMPLETED');
  });

  it('never runs a rejected call; the reason reaches the model', async () => {
    const log: ToolLog = [];
    server = await serveA2a({ chats: [releaseTeam(log)] });
    const client = await clientFor(server.urlOf('release_team'));
    const waiting = asTask(await client.sendMessage(userMessage([text('Ship v2.')])));
    expect(stateName(waiting.status?.state)).toBe('TASK_STATE_INPUT_REQUIRED');
    const [, pendingData] = partsOf(waiting.status?.message?.parts) as [string, { pending: { callId: string }[] }];
    const callId = pendingData.pending[0]!.callId;
    const done = asTask(
      await client.sendMessage(
        userMessage([data({ reject: callId, reason: 'Not on a Friday.' })], { taskId: waiting.id, contextId: waiting.contextId }),
      ),
    );
    expect(stateName(done.status?.state)).toBe('TASK_STATE_COMPLETED');
    expect(log).toEqual(['run_checks']);
  });

  it('refuses an answer that names no pending call, and the task still waits', async () => {
    const log: ToolLog = [];
    server = await serveA2a({ chats: [releaseTeam(log)] });
    const client = await clientFor(server.urlOf('release_team'));
    const waiting = asTask(await client.sendMessage(userMessage([text('Ship v2.')])));
    const ids = { taskId: waiting.id, contextId: waiting.contextId };
    const refused = asTask(await client.sendMessage(userMessage([data({ approve: 'call-that-does-not-exist' })], ids)));
    expect(stateName(refused.status?.state)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(partsOf(refused.status?.message?.parts)[0]).toMatch(/^No call "call-that-does-not-exist" waits for a decision; pending: /);
    const [, pendingData] = partsOf(waiting.status?.message?.parts) as [string, { pending: { callId: string }[] }];
    const done = asTask(await client.sendMessage(userMessage([data({ approve: pendingData.pending[0]!.callId })], ids)));
    expect(stateName(done.status?.state)).toBe('TASK_STATE_COMPLETED');
    expect(log).toEqual(['run_checks', 'deploy v2']);
  });

  it("puts a person's turn as input-required with the speaker, and a text part answers it", async () => {
    server = await serveA2a({ chats: [reviewDesk()] });
    const client = await clientFor(server.urlOf('review_desk'));
    const waiting = asTask(await client.sendMessage(userMessage([text('Write the v2 note.')])));
    expect(stateName(waiting.status?.state)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(partsOf(waiting.status?.message?.parts)).toEqual(["Waiting for alice's turn: answer with a text part.", { speaker: 'alice' }]);
    const done = asTask(await client.sendMessage(userMessage([text('Mention AG-UI too.')], { taskId: waiting.id, contextId: waiting.contextId })));
    expect(stateName(done.status?.state)).toBe('TASK_STATE_COMPLETED');
    expect(partsOf(done.artifacts[0]?.parts)).toEqual(['Final: v2 adds A2A and AG-UI.']);
    expect(done.history.map((message) => partsOf(message.parts)[0])).toContain('Mention AG-UI too.');
  });

  it('cancels a task: the run is aborted, its running tool too, and the task ends canceled', async () => {
    const log: ToolLog = [];
    let started = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    server = await serveA2a({ agents: [slowWorker(log, started)] });
    const client = await clientFor(server.urlOf('worker'));
    const stream = client.sendMessageStream(userMessage([text('Crunch.')]))[Symbol.asyncIterator]();
    const first = await stream.next();
    if (first.done || first.value.payload?.$case !== 'task') throw new Error('The stream did not begin with the task.');
    const taskId = first.value.payload.value.id;
    const reading = collect({ [Symbol.asyncIterator]: () => stream });
    await toolStarted;
    const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(stateName(canceled.status?.state)).toBe('TASK_STATE_CANCELED');
    const { lines } = await reading;
    expect(lines.at(-1)).toBe('status TASK_STATE_CANCELED: The run was canceled.');
    expect(log).toEqual(['crunch started', 'crunch aborted']);
    expect(stateName((await client.getTask({ tenant: '', id: taskId })).status?.state)).toBe('TASK_STATE_CANCELED');
  });
});

describe('serveA2a: protocol versions', () => {
  const rpc = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((response) =>
      response.json(),
    );

  it('answers A2A-Version: 1.0 in 1.0 and a request without the header in 0.3, through the compatibility layer', async () => {
    server = await serveA2a({ agents: [greeter(), { agent: greeter(), name: 'greeter_03' }] });
    const v1 = await rpc(
      server.urlOf('greeter'),
      { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Greet Ada.' }] } } },
      { 'A2A-Version': '1.0' },
    );
    expect(v1.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(v1.result.task.artifacts[0].parts).toEqual([{ text: 'Hello, Ada!', mediaType: 'text/plain' }]);
    const v03 = await rpc(server.urlOf('greeter_03'), {
      jsonrpc: '2.0',
      id: 2,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm2', role: 'user', parts: [{ kind: 'text', text: 'Greet Ada.' }] } },
    });
    expect([v03.result.kind, v03.result.status.state]).toEqual(['task', 'completed']);
    expect(v03.result.artifacts[0].parts).toEqual([{ kind: 'text', text: 'Hello, Ada!' }]);
    const legacyCard = await (await fetch(`${server.urlOf('greeter')}.well-known/agent-card.json`)).json();
    expect([legacyCard.protocolVersion, legacyCard.url, legacyCard.capabilities.streaming]).toEqual(['0.3', server.urlOf('greeter'), true]);
  });
});
