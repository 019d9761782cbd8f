import type { AnyTool, ErrorInfo, ToolModeSetting } from '@agentchart/core';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { DelegatedProtocol } from '../participant/participantProtocol.js';
import type { SharedStateValues } from './groupChatTypes.js';

/** The handoff target that ends the chat. */
export const TERMINATE = 'terminate';

/** A participant as the manager runs it. */
export type ChatMember = {
  readonly name: string;
  readonly description: string;
  /** Context conditions, checked in order before the member's turn. */
  readonly contextConditions: readonly { to: string; when: (state: SharedStateValues) => boolean }[];
  /** `transfer_to_<name>` (and `terminate_chat`) tool names → their target. */
  readonly handoffTools: ReadonlyMap<string, string>;
  /** A participant's name, `terminate`, `user` or `manager`. */
  readonly afterWork: string;
} & (
  | { readonly kind: 'agent'; readonly turn: AgentTurnSetup }
  | { readonly kind: 'human' }
  | { readonly kind: 'chat' | 'custom'; readonly delegate: DelegatedProtocol }
);

/** How an agent member takes a turn: the agent machine (with its rules), a fresh runtime per turn, its tool mode. */
export interface AgentTurnSetup {
  readonly machine: typeof agentMachine;
  /** A runtime for one turn (each turn gets its own live tool list); `mirrorToolRules` keeps the rules' machine as a child. */
  runtime(mirrorToolRules?: boolean): AgentRuntime;
  readonly toolMode: ToolModeSetting;
  /** Every tool a turn may have by name (its tools, handoff tools included, and addable tools): a persisted turn's live tools are found here. */
  readonly knownTools: ReadonlyMap<string, AnyTool>;
  /** Set when the agent's tool sources changed into a list it cannot run with (its rules name a removed tool): its turn fails with this. */
  readonly unusable?: ErrorInfo;
}
