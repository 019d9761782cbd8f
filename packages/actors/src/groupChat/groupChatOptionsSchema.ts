import { z } from 'zod';
import { chosenBy, describeValue, expects } from '../assertOptions.js';
import { chatModelSchema, functionSchema, inspectSchema } from '../optionSchemas.js';
import { PARTICIPANT_NAME_PATTERN } from './participantName.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const repeat = expects("must be true, false or a list of the participants who may speak twice in a row, e.g. ['alice']");
const initial = expects("must be a participant's name or a non-empty list of names");

/**
 * The options that shape the speaker transitions (`compileTransitions` checks
 * them too). The `transitions` map itself is checked by `compileTransitions`,
 * which shows the right shape.
 */
export const TransitionSettingsSchema = z.object({
  transitions: z.unknown().optional(),
  allowRepeatSpeaker: z.union([z.boolean(repeat), z.array(z.string(repeat), repeat)], repeat).optional(),
  initialSpeaker: z.union([z.string(initial), z.array(z.string(initial), initial).min(1)], initial).optional(),
});

const participant = expects(
  "must be an agent made by createAgent(...), a humanAgent(...), a group chat, a custom participant ({ kind: 'custom', name, takeTurn }), or { agent, handoffs?, afterWork?, description? }",
);
/** An agent, a person, a group chat or a custom participant (which kind it is, and its name, are checked when the members are built). */
const isParticipant = (value: unknown) =>
  isObject(value) &&
  typeof value.name === 'string' &&
  (value.kind === 'human' || typeof value.run === 'function' || (value.kind === 'custom' && typeof value.takeTurn === 'function'));
const ParticipantSchema = z.custom(isParticipant, participant);
const target = expects("must be a participant's name or 'terminate'");
const HandoffSchema = z.object(
  {
    to: z.string(target).min(1),
    description: z.string(expects('must be a string: when to hand off')).optional(),
    when: functionSchema(expects('must be a predicate (state) => boolean')).optional(),
  },
  expects('must be { to, description?, when? }'),
);
const MemberOptionsSchema = z.object(
  {
    agent: z.custom(isParticipant, expects('must be an agent made by createAgent(...), a humanAgent(...), a group chat or a custom participant')),
    description: z.string(expects('must be a string')).optional(),
    handoffs: z.array(HandoffSchema, expects("must be a list of handoffs, e.g. [{ to: 'critic' }]")).optional(),
    afterWork: z.string(expects("must be a participant's name, 'terminate', 'user' or 'manager'")).optional(),
  },
  participant,
);
/** A participant, or a participant with its settings (`{ agent, ... }`). */
const MemberSchema = chosenBy((value) => (isObject(value) && 'agent' in value ? MemberOptionsSchema : ParticipantSchema));

const SELECTION_FORMS = "'round_robin', 'random', 'manual', { method: 'random', seed }, { method: 'auto', model } or a function";
/** What a speakerSelection that fits no form is told: names are exact, so the message lists them. */
const selection = {
  error: (issue: { input?: unknown }) =>
    issue.input === 'auto'
      ? "'auto' needs a model to pick with: use { method: 'auto', model }"
      : `must be one of ${SELECTION_FORMS} (names are exact, lower case); got ${describeValue(issue.input)}`,
};
const SelectionObjectSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('random'), seed: z.number(expects('must be a whole number')).int().optional() }),
    z.object({
      method: z.literal('auto'),
      model: chatModelSchema(),
      maxRetries: z.number(expects('must be a whole number of at least 0')).int().min(0).optional(),
      instructions: z.string(expects('must be a string: the system prompt of the selector')).optional(),
    }),
  ],
  selection,
);
const SelectionNameSchema = z.enum(['round_robin', 'random', 'manual'], selection);
const SelectionFunctionSchema = functionSchema(selection);
const SpeakerSelectionSchema = chosenBy((value) => {
  if (typeof value === 'function') return SelectionFunctionSchema;
  return typeof value === 'object' && value !== null ? SelectionObjectSchema : SelectionNameSchema;
});

const terminate = expects("takes a keyword ('TERMINATE'), a list of keywords or a predicate (message, state) => boolean");

/**
 * The shape of `createGroupChat`'s options, checked before anything is built,
 * so a JavaScript or JSON caller gets a `ConfigurationError` naming the option
 * (never a `TypeError`, never a value read the wrong way, like a name read
 * letter by letter). Names are checked against the participants afterwards
 * (`TransitionGraphError`).
 */
export const GroupChatOptionsSchema = z.object(
  {
    ...TransitionSettingsSchema.shape,
    agents: z.array(MemberSchema, expects('must be a list of at least one participant')).min(1),
    speakerSelection: SpeakerSelectionSchema,
    maxRounds: z.number(expects('must be a whole number of at least 1')).int().min(1),
    terminate: z
      .union([z.string(terminate).min(1), z.array(z.string(terminate).min(1), terminate).min(1), functionSchema(terminate)], terminate)
      .optional(),
    sharedState: z.record(z.string(), z.unknown(), expects('must be an object of initial values, e.g. { sources: [] }')).optional(),
    views: z.enum(['broadcast', 'isolated'], expects("must be 'broadcast' or 'isolated'")).optional(),
    name: z
      .string(expects('must be 1 to 64 letters, digits, "_" or "-" (its name as a participant of another chat)'))
      .regex(PARTICIPANT_NAME_PATTERN)
      .optional(),
    description: z.string(expects('must be a string')).optional(),
    inspect: inspectSchema().optional(),
    // Checked where they are read, with messages of their own (`tokenBudget`, `checkPriceTable`).
    maxTokens: z.unknown().optional(),
    prices: z.unknown().optional(),
  },
  expects('must be an options object: { agents, speakerSelection, maxRounds, ... }'),
);

/** The shape of `chat.run`'s options (beside the input). */
export const GroupChatRunOptionsSchema = z.object(
  {
    signal: z.custom((value) => isObject(value) && typeof value.aborted === 'boolean', expects('must be an AbortSignal')).optional(),
    sharedState: z.record(z.string(), z.unknown(), expects('must be an object of initial values, e.g. { sources: [] }')).optional(),
    inspect: inspectSchema().optional(),
    unknownSpeakers: z.enum(['refuse', 'context'], expects("must be 'refuse' or 'context'")).optional(),
    chatId: z.string(expects('must be a text (the chat id)')).min(1, 'must not be empty').optional(),
    randomSeed: z.number(expects('must be a number')).int('must be a whole number').optional(),
    maxTokens: z.unknown().optional(),
  },
  expects('must be an options object: { signal?, sharedState?, inspect?, unknownSpeakers?, chatId?, randomSeed? }'),
);
