import type { AnyTool, ChatModel, ToolSpec } from '@agentchart/core';

/**
 * The parts of a reliable tool that are code, not data: the wrapped tool and
 * the two models. Built once per instance and shared by its runs.
 */
export interface ReliableToolRuntime {
  readonly name: string;
  readonly tool: AnyTool;
  /** The wrapped tool with the `hypothesis` argument, as the runner sees it. */
  readonly runnerSpec: ToolSpec;
  readonly runnerModel: ChatModel;
  readonly validatorModel: ChatModel;
  readonly runnerInstructions: string | undefined;
  readonly validationInstructions: string | undefined;
  readonly maxToolInvocations: number;
}
