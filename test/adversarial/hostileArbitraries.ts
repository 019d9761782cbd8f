import fc from 'fast-check';
import { LEAKED_VALUES } from '../security/secretCorpus.js';

/** The tools every hostile agent has, and the one `alpha` adds during a run (the rules never name it). */
export const TOOL_NAMES = ['alpha', 'beta', 'gamma'] as const;
export const ADDED_TOOL = 'omega';
export type ToolName = (typeof TOOL_NAMES)[number];

/** A credential the runtime holds: it must never reach events or traces. */
export const RUNTIME_SECRET = 'adversarial-runtime-secret-7f3a9c1e';

/** Names a hostile model calls: real, added, look-alikes, prototype members, nonsense. */
const hostileName = fc.constantFrom(
  'alpha',
  'beta',
  'gamma',
  'omega',
  'alpha',
  'beta',
  'gamma',
  'omega',
  'Alpha',
  'alpha ',
  '\u0430lpha',
  'beta\u200b',
  'gamma\n',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  'valueOf',
);

/** Text with, now and then, a credential shape inside it. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  // Credential shapes are found where they start a word (as they do in text, JSON, headers and URLs).
  fc
    .tuple(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(' ', '"', ':', '=', '\n', '('),
      fc.constantFrom(...LEAKED_VALUES),
      fc.string({ maxLength: 10 }),
    )
    .map(([a, separator, secret, b]) => `${a}${separator}${secret} ${b}`),
);

function nested(depth: number): unknown {
  let value: unknown = { n: 1 };
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { s: value } : [value];
  return value;
}

/** A value fast-check prints short in a counterexample (the symbol is not enumerable: JSON and the agent never see it). */
function printedAs<T>(value: T, text: string): T {
  if (typeof value === 'object' && value !== null) Object.defineProperty(value, fc.toStringMethod, { value: () => text });
  return value;
}

const hugeArguments = (size: number) => printedAs({ s: 'x'.repeat(size) }, `{ s: <${size} × "x"> }`);

/** Arguments as a provider hands them over: parsed JSON (own `__proto__` keys), or anything else. */
const hostileArguments: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ n: fc.integer({ min: -10, max: 10 }), s: fc.string({ maxLength: 8 }) }, { requiredKeys: [] }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '{"__proto__":{"n":1000000}}',
        '{"s":"ok","__proto__":{"n":7,"s":"hidden"}}',
        '{"n":null,"s":null,"__proto__":{"n":9}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '{"__proto__":{"polluted":true},"n":1}',
        '{"toString":"x","valueOf":1,"hasOwnProperty":null}',
        '{"n":1,"n":1000000}',
      )
      .map((json) => JSON.parse(json) as unknown),
  },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 400 }).map((depth) => printedAs(nested(depth), `<nested ${depth} deep>`)) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map(hugeArguments) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 42, 'text', [], [1, 2], true) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export interface HostileCall {
  name: string;
  arguments?: unknown;
  malformedArguments?: string;
}

const hostileCall: fc.Arbitrary<HostileCall> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ name: hostileName, arguments: hostileArguments }) },
  { weight: 1, arbitrary: fc.record({ name: hostileName, malformedArguments: fc.constantFrom('{"n": 1', 'not json', '{n:1}', '\u0000', '') }) },
);

export interface HostileTurn {
  text?: string;
  /** Ids repeat within a reply and across replies: the runtime gives a repeated id its own id. */
  toolCalls?: { id: string; name: string; arguments?: unknown; malformedArguments?: string }[];
  error?: string;
}

const hostileTurn: fc.Arbitrary<HostileTurn> = fc.oneof(
  { weight: 2, arbitrary: hostileText.map((text) => ({ text })) },
  {
    weight: 7,
    arbitrary: fc
      .tuple(fc.array(hostileCall, { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom('c1', 'c2', 'c3'), { minLength: 4, maxLength: 4 }))
      .map(([calls, ids]) => ({ toolCalls: calls.map((call, index) => ({ ...call, id: ids[index] as string })) })),
  },
  { weight: 1, arbitrary: fc.constant({ error: `Incorrect API key provided: ${RUNTIME_SECRET}` }) },
);

/** One rule over the three named tools. */
const toolName = fc.constantFrom<ToolName>(...TOOL_NAMES);
const hostileRule = fc.oneof(
  toolName.map((tool) => ({ type: 'init', tool })),
  toolName.map((tool) => ({ type: 'terminal', tool })),
  toolName.map((tool) => ({ type: 'requiresApproval', tool })),
  fc.tuple(toolName, fc.integer({ min: 1, max: 3 })).map(([tool, limit]) => ({ type: 'maxCount', tool, limit })),
  fc.tuple(toolName, fc.uniqueArray(toolName, { minLength: 1, maxLength: 3 })).map(([tool, children]) => ({ type: 'child', tool, children })),
  fc.tuple(toolName, fc.uniqueArray(toolName, { minLength: 1, maxLength: 2 })).map(([tool, children]) => ({ type: 'parent', tool, children })),
);

export interface ToolSetup {
  strict: boolean;
  approval: 'always' | 'never' | 'big';
  oneCallAtATime: boolean;
}

export interface HostileScenario {
  turns: HostileTurn[];
  rules: Record<string, unknown>[] | undefined;
  unnamedTools: 'where-free' | 'refuse';
  tools: Record<ToolName | typeof ADDED_TOOL, ToolSetup>;
  maxToolCalls: number | undefined;
  maxSteps: number;
  decisions: boolean[];
  trace: boolean;
}

const toolSetup: fc.Arbitrary<ToolSetup> = fc.record({
  strict: fc.boolean(),
  approval: fc.constantFrom<ToolSetup['approval']>('never', 'never', 'always', 'big'),
  oneCallAtATime: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
});

export const hostileScenario: fc.Arbitrary<HostileScenario> = fc.record({
  turns: fc.array(hostileTurn, { minLength: 1, maxLength: 4 }),
  rules: fc.option(fc.array(hostileRule, { minLength: 1, maxLength: 4 }), { nil: undefined }),
  unnamedTools: fc.constantFrom<'where-free' | 'refuse'>('where-free', 'refuse'),
  tools: fc.record({ alpha: toolSetup, beta: toolSetup, gamma: toolSetup, omega: toolSetup }),
  maxToolCalls: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  maxSteps: fc.integer({ min: 1, max: 5 }),
  decisions: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  trace: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
