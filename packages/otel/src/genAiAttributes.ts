/**
 * The OpenTelemetry GenAI semantic-convention names this package writes
 * (semantic-conventions 1.37+ and the GenAI conventions that followed them),
 * and agentchart's own, under `agentchart.`.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  workflowName: 'gen_ai.workflow.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
  /** agentchart: why a run or a chat ended. */
  stopReason: 'agentchart.stop_reason',
  /** agentchart: the model call's step in its run. */
  step: 'agentchart.step',
  /** agentchart: turns a chat took. */
  rounds: 'agentchart.chat.rounds',
  /** agentchart: the reliable tool's model role (`runner` or `validator`). */
  reliableRole: 'agentchart.reliable_tool.role',
  /** agentchart: the run was aborted while this tool call ran (the span ends without an error). */
  aborted: 'agentchart.aborted',
  /** agentchart: what the usage cost, from the price table given to `genAiTracing`. */
  cost: 'agentchart.usage.cost',
} as const;

/** The `gen_ai.operation.name` values this package writes. */
export const OPERATION = {
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
  chat: 'chat',
  executeTool: 'execute_tool',
} as const;

/** The span events this package adds (agentchart's own names). */
export const SPAN_EVENT = {
  toolRefused: 'agentchart.tool.refused',
  toolAnswered: 'agentchart.tool.answered',
  toolUnknown: 'agentchart.tool.unknown',
  approvalRequested: 'agentchart.approval.requested',
  approvalDecided: 'agentchart.approval.decided',
  toolsChanged: 'agentchart.tools.changed',
  toolProgress: 'agentchart.tool.progress',
  modelMalformed: 'agentchart.model.malformed',
  handoff: 'agentchart.handoff',
  speakerSelected: 'agentchart.speaker.selected',
  humanWaiting: 'agentchart.human.waiting',
  humanSaid: 'agentchart.human.said',
  attemptStarted: 'agentchart.reliable_tool.attempt',
  verdict: 'agentchart.reliable_tool.verdict',
} as const;

/** The attributes that hold content (only with `captureContent`, sanitised when made): exported as they are. */
export const CONTENT_ATTRIBUTES: ReadonlySet<string> = new Set([
  ATTR.inputMessages,
  ATTR.outputMessages,
  ATTR.toolCallArguments,
  ATTR.toolCallResult,
  'agentchart.text',
  'agentchart.justification',
]);

/** The attributes that hold a sentence, not a name: cut at the text length (`sanitize.maxStringLength`), not the name length. */
export const TEXT_ATTRIBUTES: ReadonlySet<string> = new Set(['agentchart.reason']);

/** The `code` of a tool result the run's abort answered (the call was cut short; see `tool.result`). */
export const ABORTED_CODE = 'ABORTED';
