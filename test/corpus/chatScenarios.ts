import {
  type ChatEvent,
  type CustomParticipant,
  type GroupChat,
  type GroupChatOptions,
  type GroupChatRun,
  type ParticipantTurn,
  createAgent,
  createGroupChat,
  humanAgent,
} from '@agentchart/actors';
import { rules } from '@agentchart/core';
import { type ScriptedResponder, type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { tool } from './agentScenarios.js';
import type { Scenario, ScenarioGroup, Variant } from './corpusKit.js';

/**
 * Chats of the corpus: each selection method, handoffs (by tool and by
 * context condition), budgets, people, custom participants, chats nested two
 * deep, an abort in each kind of turn, and a resume from each kind of
 * snapshot. Each returns its events, result and snapshots.
 */

const usage = { inputTokens: 4, outputTokens: 2 };

/** An agent that says `texts` in order (then the last again); a text may be a whole scripted turn. */
function talker(
  name: string,
  texts: readonly (string | ScriptedTurn)[],
  options: { tools?: ReturnType<typeof tool>[]; toolRules?: ReturnType<typeof rules.maxCount>[] } = {},
) {
  const model = scriptedModel((_request, index) => {
    const text = texts[Math.min(index, texts.length - 1)] ?? '';
    return typeof text === 'string' ? { text, usage } : { usage, ...text };
  });
  return createAgent({
    name,
    model,
    instructions: `You are ${name}.`,
    tools: options.tools ?? [],
    ...(options.toolRules ? { toolRules: options.toolRules } : {}),
  });
}

/** An agent that calls `toolName` once per turn (the transcript decides: fresh copies go on where others stopped), then answers. */
function toolTaker(name: string, toolName: string, approval?: 'always') {
  const reply: ScriptedResponder = (request) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: `${name} used ${toolName}`, usage }
      : { toolCalls: [{ name: toolName, arguments: { x: name } }], usage };
  return createAgent({ name, model: scriptedModel(reply), tools: [tool(toolName, approval === undefined ? {} : { approval })] });
}

function collect(run: GroupChatRun) {
  const events: ChatEvent[] = [];
  run.events$.subscribe((event) => events.push(event));
  return events;
}

/** What answers a chat's waits: approvals, a person's turn, a manual choice. */
interface Answers {
  approve?: boolean;
  say?: (speaker: string) => string;
  select?: string[];
}

/** The event a chat event carries, through any number of `nested.event` and `agent.event` wrappers. */
function innermost(event: ChatEvent): { type: string; id?: string; speaker?: string } {
  let inner: { type: string; event?: unknown } = event;
  while ((inner.type === 'nested.event' || inner.type === 'agent.event') && inner.event !== undefined) inner = inner.event as typeof inner;
  return inner as { type: string; id?: string; speaker?: string };
}

/** Answers every wait of `run` as `answers` says, on the next microtask (a refused choice: the next one at once). */
function answer(run: GroupChatRun, answers: Answers) {
  const choices = [...(answers.select ?? [])];
  const refused: unknown[] = [];
  const attempt = (act: () => void) => {
    try {
      act();
      return true;
    } catch (error) {
      refused.push(error);
      return false;
    }
  };
  run.events$.subscribe((event) => {
    const inner = innermost(event);
    if (inner.type === 'approval.requested' && answers.approve !== undefined) {
      const id = inner.id as string;
      queueMicrotask(() => attempt(() => (answers.approve ? run.approve(id) : run.reject(id, 'no'))));
    }
    if (inner.type === 'human.waiting' && answers.say !== undefined) {
      const say = answers.say;
      queueMicrotask(() => attempt(() => run.say(say(inner.speaker as string))));
    }
    if (inner.type === 'speaker.choice.requested')
      queueMicrotask(() => {
        while (choices.length > 0 && !attempt(() => run.select(choices.shift() as string)));
      });
  });
  return refused;
}

async function runChat(chat: GroupChat, task: string, variant: Variant, answers: Answers = {}, extra: Record<string, unknown> = {}) {
  const run = variant.track(chat.run(task, { chatId: 'chat-corpus', ...variant.runOptions('chat-corpus'), ...extra }));
  const events = collect(run);
  const refused = answer(run, answers);
  const result = await run.result;
  return { events, result, state: run.state.values(), ...(refused.length === 0 ? {} : { refused }) };
}

const trio = () => [talker('a', ['A1', 'A2', 'A3']), talker('b', ['B1', 'B2', 'B3']), talker('c', ['C1', 'C2', 'C3'])];
const chatOf = (options: Partial<GroupChatOptions> & Pick<GroupChatOptions, 'agents'>) =>
  createGroupChat({ speakerSelection: 'round_robin', maxRounds: 4, ...options });

/** A participant of the user's own that waits for a clerk's word, persists `{ request }` and resumes from it. */
function desk(started: () => void = () => {}): CustomParticipant {
  const turn = (state: { request: string }, signal: AbortSignal): ParticipantTurn => {
    let confirm: (text: string) => void = () => {};
    let confirmed = false;
    const reply = new Promise<string>((resolve, reject) => {
      confirm = (text) => resolve(`Booked ${state.request} (clerk: ${text}).`);
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    return {
      reply,
      waiting: () => (confirmed ? undefined : { kind: 'human', speaker: 'clerk' }),
      say: (text) => {
        confirmed = true;
        confirm(text);
      },
      persist: () => ({ ...state }),
      partial: () => `Holding ${state.request}.`,
    };
  };
  return {
    kind: 'custom',
    name: 'desk',
    description: 'Books what was asked for, once the clerk confirms.',
    takeTurn: (view, { signal }) => {
      queueMicrotask(started);
      const last = view.at(-1);
      return turn({ request: typeof last?.content === 'string' ? last.content : '?' }, signal);
    },
    resumeTurn: (state, { signal }) => turn(state as { request: string }, signal),
  };
}

/** A chat nested two deep: outer(planner, middle(researcher, inner(fact, check))). */
function nestedTwoDeep(innerAgents: GroupChatOptions['agents'] = [talker('fact', ['Octopuses have three hearts.']), talker('check', ['Checked.'])]) {
  const inner = createGroupChat({
    name: 'inner',
    description: 'Finds and checks a fact.',
    agents: innerAgents,
    speakerSelection: 'round_robin',
    maxRounds: 2,
  });
  const middle = createGroupChat({
    name: 'middle',
    description: 'Researches.',
    agents: [talker('researcher', ['Asking inner.', 'Summarised.']), inner],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
  return chatOf({ agents: [talker('planner', ['We need a fact.', 'Thanks, done.']), middle], maxRounds: 3 });
}

const scenarios: Record<string, Scenario> = {
  roundRobin: (v) => runChat(chatOf({ agents: trio() }), 'Talk', v),
  randomSeeded: (v) => runChat(chatOf({ agents: trio(), speakerSelection: { method: 'random', seed: 42 } }), 'Talk', v),
  randomRunSeed: (v) => runChat(chatOf({ agents: trio(), speakerSelection: 'random', allowRepeatSpeaker: false }), 'Talk', v, {}, { randomSeed: 7 }),
  manual: (v) =>
    runChat(chatOf({ agents: trio(), speakerSelection: 'manual', allowRepeatSpeaker: false, maxRounds: 10 }), 'Pick', v, {
      select: ['b', 'a', 'b', 'terminate'],
    }),
  manualIneligible: (v) =>
    runChat(chatOf({ agents: trio(), speakerSelection: 'manual', allowRepeatSpeaker: false, maxRounds: 3 }), 'Pick', v, {
      select: ['b', 'b', 'c', 'a'],
    }),
  auto: (v) =>
    runChat(
      chatOf({
        agents: trio(),
        speakerSelection: {
          method: 'auto',
          model: scriptedModel([{ text: '{"speaker":"b"}' }, { text: '{"speaker":"z"}' }, { text: '{"speaker":"c"}' }]),
        },
        maxRounds: 3,
      }),
      'Auto',
      v,
    ),
  autoFallback: (v) =>
    runChat(
      chatOf({
        agents: trio(),
        speakerSelection: { method: 'auto', model: scriptedModel((_r) => ({ text: 'nobody' })), maxRetries: 1 },
        maxRounds: 2,
      }),
      'Auto',
      v,
    ),
  functionSelector: (v) => runChat(chatOf({ agents: trio(), speakerSelection: (state) => (state.rounds % 2 === 0 ? 'c' : 'a') }), 'Fn', v),
  transitions: (v) =>
    runChat(
      chatOf({ agents: trio(), speakerSelection: 'random', transitions: { allowed: { a: ['c'], c: ['b'], b: ['a'] } }, maxRounds: 5 }),
      'Graph',
      v,
      {},
      { randomSeed: 3 },
    ),
  initialSpeaker: (v) => runChat(chatOf({ agents: trio(), initialSpeaker: 'c', maxRounds: 3 }), 'Start with c', v),
  terminateWord: (v) =>
    runChat(chatOf({ agents: [talker('a', ['go on']), talker('b', ['All good. TERMINATE'])], terminate: 'TERMINATE', maxRounds: 6 }), 'Stop', v),
  terminateFunction: (v) =>
    runChat(
      chatOf({ agents: trio(), terminate: (message) => typeof message.content === 'string' && message.content === 'B2', maxRounds: 9 }),
      'Stop',
      v,
    ),
  handoffByTool: (v) =>
    runChat(
      chatOf({
        agents: [
          { agent: talker('a', [{ text: 'Over to c.', toolCalls: [{ name: 'transfer_to_c' }] }]), handoffs: [{ to: 'c', description: 'Checks.' }] },
          talker('b', ['B']),
          talker('c', ['C']),
        ],
        maxRounds: 3,
      }),
      'Hand off',
      v,
    ),
  handoffByContext: (v) =>
    runChat(
      chatOf({
        agents: [
          talker('a', ['A']),
          { agent: talker('b', ['B']), handoffs: [{ to: 'c', when: (state) => state.approved === true }, { to: 'a' }] },
          talker('c', ['C']),
        ],
        sharedState: { approved: true },
        maxRounds: 3,
      }),
      'Context',
      v,
    ),
  handoffContextNotHolding: (v) =>
    runChat(
      chatOf({
        agents: [{ agent: talker('b', ['B']), handoffs: [{ to: 'terminate', when: (state) => state.done === true }] }],
        sharedState: { done: false },
        maxRounds: 1,
      }),
      'Context',
      v,
    ),
  afterWork: (v) =>
    runChat(chatOf({ agents: [{ agent: talker('a', ['A']), afterWork: 'c' }, talker('b', ['B']), talker('c', ['C'])], maxRounds: 3 }), 'After', v),
  toolTurnsWithRules: (v) =>
    runChat(
      chatOf({
        agents: [
          toolTaker('planner', 'note'),
          talker('writer', [{ toolCalls: [{ name: 'write', arguments: { x: 'w' } }] }, 'written'], {
            tools: [tool('write')],
            toolRules: [rules.maxCount('write', 1)],
          }),
        ],
        maxRounds: 4,
        sharedState: {},
      }),
      'Plan',
      v,
    ),
  approvalInTurn: (v) =>
    runChat(chatOf({ agents: [toolTaker('payer', 'pay', 'always'), talker('checker', ['ok'])], maxRounds: 3 }), 'Pay', v, { approve: true }),
  approvalRejectedInTurn: (v) => runChat(chatOf({ agents: [toolTaker('payer', 'pay', 'always')], maxRounds: 1 }), 'Pay', v, { approve: false }),
  budget: (v) => runChat(chatOf({ agents: trio(), maxTokens: 14, maxRounds: 9 }), 'Budget', v),
  budgetPerRun: (v) => runChat(chatOf({ agents: trio(), maxRounds: 9 }), 'Budget', v, {}, { maxTokens: 8 }),
  person: (v) =>
    runChat(
      chatOf({ agents: [talker('writer', ['Draft.', 'Revised.']), humanAgent({ name: 'alice', description: 'Reviews.' })], maxRounds: 3 }),
      'Write',
      v,
      {
        say: (speaker) => `${speaker} says fine`,
      },
    ),
  customParticipant: async (v) => {
    let run: GroupChatRun | undefined;
    const chat = chatOf({
      agents: [talker('planner', ['A room on Friday.', 'Thanks.']), desk(() => run?.say('confirmed', { as: 'clerk' }))],
      maxRounds: 3,
    });
    run = v.track(chat.run('Book', { chatId: 'chat-corpus', ...v.runOptions('chat-corpus') }));
    const events = collect(run);
    const result = await run.result;
    return { events, result };
  },
  nestedTwoDeep: (v) => runChat(nestedTwoDeep(), 'Octopuses', v),
  nestedWithPerson: (v) =>
    runChat(nestedTwoDeep([talker('fact', ['A fact.']), humanAgent({ name: 'bob' })]), 'Octopuses', v, { say: () => 'bob agrees' }),
  isolatedViews: (v) => runChat(chatOf({ agents: trio(), views: 'isolated', maxRounds: 3 }), 'Views', v),
  sharedStateWrites: (v) =>
    runChat(
      chatOf({ agents: [toolTaker('a', 'mark'), toolTaker('b', 'stamp')], sharedState: { start: 1 }, maxRounds: 2 }),
      'State',
      v,
      {},
      { sharedState: { start: 2 } },
    ),
};

/** Kinds of turn, each with the chat that has one and the event at which the abort comes. */
/** (`later`: the abort comes a timer turn after the event, once the turn has started.) */
const abortTurns: Record<string, { chat: () => GroupChat; at: (event: ChatEvent) => boolean; answers?: Answers; later?: true }> = {
  agentText: {
    chat: () => chatOf({ agents: trio() }),
    at: (event) => event.type === 'agent.event' && event.speaker === 'b' && event.event.type === 'model.request',
  },
  agentTool: {
    chat: () => chatOf({ agents: [toolTaker('a', 'note'), toolTaker('b', 'write')] }),
    at: (event) => event.type === 'agent.event' && event.speaker === 'b' && event.event.type === 'tool.call',
  },
  approvalWait: {
    chat: () => chatOf({ agents: [talker('a', ['A']), toolTaker('b', 'pay', 'always')] }),
    at: (event) => event.type === 'agent.event' && event.event.type === 'approval.requested',
  },
  personWait: { chat: () => chatOf({ agents: [talker('a', ['A']), humanAgent({ name: 'alice' })] }), at: (event) => event.type === 'human.waiting' },
  manualChoice: {
    chat: () => chatOf({ agents: trio(), speakerSelection: 'manual' }),
    at: (event) => event.type === 'speaker.choice.requested',
    answers: { select: ['a'] },
  },
  autoSelection: {
    chat: () => chatOf({ agents: trio(), speakerSelection: { method: 'auto', model: scriptedModel(() => ({ text: '{"speaker":"b"}' })) } }),
    at: (event) => event.type === 'speaker.selected' && event.round === 2,
  },
  nestedTurn: { chat: () => nestedTwoDeep(), at: (event) => event.type === 'nested.event' && event.event.type === 'nested.event' },
  customTurn: {
    chat: () => chatOf({ agents: [talker('planner', ['A room.']), desk()] }),
    at: (event) => event.type === 'speaker.selected' && event.speaker === 'desk',
    later: true,
  },
  handoffTurn: {
    chat: () =>
      chatOf({
        agents: [
          { agent: talker('a', [{ text: 'To c.', toolCalls: [{ name: 'transfer_to_c' }] }]), handoffs: [{ to: 'c' }] },
          talker('b', ['B']),
          talker('c', ['C']),
        ],
      }),
    at: (event) => event.type === 'handoff',
  },
};

for (const [kind, { chat, at, answers, later }] of Object.entries(abortTurns))
  scenarios[`abortIn:${kind}`] = async (v) => {
    const run = v.track(chat().run('Abort me', { chatId: 'chat-corpus', ...v.runOptions('chat-corpus') }));
    const events = collect(run);
    let abortedAt: number | undefined;
    run.events$.subscribe((event) => {
      if (abortedAt === undefined && at(event)) {
        abortedAt = events.length;
        if (later) setTimeout(() => run.abort(), 0);
        else run.abort();
      }
    });
    const refused = answer(run, answers ?? {});
    const result = await run.result;
    return { abortedAt: abortedAt ?? 'never', events, result, ...(refused.length === 0 ? {} : { refused }) };
  };

/** Kinds of snapshot, each with the chat that waits that way, the event that says it waits, and what answers after the resume. */
/** (`later`: the snapshot is taken a timer turn after the event, once the turn has started.) */
const snapshotKinds: Record<string, { chat: () => GroupChat; waitsAt: (event: ChatEvent) => boolean; answers: Answers; later?: true }> = {
  approval: {
    chat: () => chatOf({ agents: [talker('a', ['A']), toolTaker('b', 'pay', 'always')], maxRounds: 3 }),
    waitsAt: (event) => event.type === 'agent.event' && event.event.type === 'approval.requested',
    answers: { approve: true },
  },
  person: {
    chat: () => chatOf({ agents: [talker('a', ['A', 'A again']), humanAgent({ name: 'alice' })], maxRounds: 3 }),
    waitsAt: (event) => event.type === 'human.waiting',
    answers: { say: () => 'alice answers' },
  },
  choice: {
    chat: () => chatOf({ agents: trio(), speakerSelection: 'manual', maxRounds: 3 }),
    waitsAt: (event) => event.type === 'speaker.choice.requested',
    answers: { select: ['c', 'a', 'b'] },
  },
  nested: {
    chat: () => nestedTwoDeep([talker('fact', ['A fact.']), humanAgent({ name: 'bob' })]),
    waitsAt: (event) => event.type === 'nested.event' && JSON.stringify(event).includes('"human.waiting"'),
    answers: { say: () => 'bob agrees' },
  },
  nestedApproval: {
    chat: () => nestedTwoDeep([toolTaker('fact', 'pay', 'always'), talker('check', ['Checked.'])]),
    waitsAt: (event) => event.type === 'nested.event' && JSON.stringify(event).includes('"approval.requested"'),
    answers: { approve: true },
  },
  participant: {
    chat: () => chatOf({ agents: [talker('planner', ['A room on Friday.', 'Thanks.']), desk()], maxRounds: 3 }),
    waitsAt: (event) => event.type === 'speaker.selected' && event.speaker === 'desk',
    answers: { say: () => 'confirmed' },
    later: true,
  },
};

for (const [kind, { chat, waitsAt, answers, later }] of Object.entries(snapshotKinds))
  scenarios[`resumeFrom:${kind}`] = async (v) => {
    const first = v.track(chat().run('Resume me', { chatId: 'chat-corpus', ...v.runOptions('chat-corpus') }));
    const firstEvents = collect(first);
    const snapshot = await new Promise<unknown>((resolve, reject) => {
      first.events$.subscribe((event) => {
        if (!waitsAt(event)) return;
        const take = () => {
          try {
            resolve(first.snapshot());
          } catch (error) {
            reject(error);
          }
        };
        if (later) setTimeout(take, 0);
        else queueMicrotask(take);
      });
    });
    const waitingBefore = first.waiting();
    first.abort();
    const aborted = await first.result;
    const resumed = v.track(chat().resume(JSON.parse(JSON.stringify(snapshot)), v.resumeOptions()));
    const waitingAfter = resumed.waiting();
    const resumedEvents = collect(resumed);
    const refused = answer(resumed, answers);
    // The wait was persisted: answer it through the handle, as a person coming back would.
    if (waitingAfter?.kind === 'approval') for (const request of waitingAfter.requests) resumed.approve(request.id);
    if (waitingAfter?.kind === 'human' && answers.say) resumed.say(answers.say(waitingAfter.speaker));
    if (waitingAfter?.kind === 'choice' && answers.select) resumed.select(answers.select[0] as string);
    const result = await resumed.result;
    return { firstEvents, snapshot, waitingBefore, aborted, waitingAfter, resumedEvents, result, ...(refused.length === 0 ? {} : { refused }) };
  };

export const chatScenarios: ScenarioGroup = { variants: ['plain', 'inspected', 'stored'], scenarios };
