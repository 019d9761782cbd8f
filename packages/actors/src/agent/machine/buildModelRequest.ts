import type { AnyTool, ChatRequest, Message } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import { offeredTools, toChatToolChoice } from './toolChoice.js';
import { applyToolRulesToRequest } from '../toolRules/toolRulesRequest.js';

/** The request for the model's next step: system prompt, transcript, the tools offered now. */
export function buildModelRequest(context: AgentContext): ChatRequest {
  const { runtime } = context;
  let messages: readonly Message[] = context.messages;
  if (runtime.instructions !== undefined) {
    const system: Message[] = [{ role: 'system', content: runtime.instructions }];
    // `concat` copies the transcript at its final length; a spread after the system message grows its copy once more.
    messages = system.concat(context.messages);
  }
  const tools = offeredToolsNow(context);
  // All live tools offered (most steps): the live list's shared specs, not a new list per step.
  const specs = tools === runtime.liveTools.view() ? runtime.liveTools.specs() : tools.map((tool) => tool.spec);
  const request: ChatRequest = { messages, tools: specs, toolChoice: toChatToolChoice(context.toolMode, tools) };
  return runtime.toolRules && context.rules ? applyToolRulesToRequest(request, runtime.toolRules, context.rules) : request;
}

/** The live tools the next model call offers (and the batch after it may call). */
export function offeredToolsNow(context: AgentContext): readonly AnyTool[] {
  return offeredTools(context.toolMode, context.runtime.liveTools.view(), context.finalCall !== undefined);
}

/** The tools a batch may call, by name: those offered for it (the live list itself, shared, when all are offered). */
export function offeredToolsByName(context: AgentContext): ReadonlyMap<string, AnyTool> {
  const live = context.runtime.liveTools;
  const offered = offeredToolsNow(context);
  return offered === live.view() ? live.byName() : new Map(offered.map((tool) => [tool.name, tool]));
}
