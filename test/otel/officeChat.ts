import { type GroupChat, createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

/** `office`: `payer` calls `pay` (approval needed), then says "paid"; `clerk` says "filed". */
export function officeChat(): GroupChat {
  const pay = defineTool({ name: 'pay', description: 'Pays Bob.', parameters: z.object({}), approval: 'always', execute: () => 'paid 10' });
  const payer = createAgent({
    name: 'payer',
    tools: [pay],
    model: scriptedModel(async (request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'paid' } : { toolCalls: [{ id: 'p1', name: 'pay' }] },
    ),
  });
  const clerk = createAgent({ name: 'clerk', model: scriptedModel(async () => ({ text: 'filed' })) });
  return createGroupChat({ name: 'office', agents: [payer, clerk], speakerSelection: 'round_robin', maxRounds: 2 });
}

/** The spans of the resumed part of the chat: its approved call, the rest of the payer's turn, the clerk's turn. */
export const RESUMED_TREE = [
  'invoke_workflow office [INTERNAL] agent.name="office" agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected',
  '  invoke_agent payer [INTERNAL] agent.name="payer" agentchart.stop_reason="completed"',
  '    execute_tool pay [INTERNAL] events=agentchart.approval.decided',
  '    chat scripted [CLIENT]',
  '  invoke_agent clerk [INTERNAL] agent.name="clerk" agentchart.stop_reason="completed"',
  '    chat scripted [CLIENT]',
].join('\n');
