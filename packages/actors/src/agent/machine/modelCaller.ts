import type { ChatModel, ChatRequest, FinishReason, MalformedReplyReason, ModelEvent, RunEvent, Usage } from '@agentchart/core';
import { addUsage } from '@agentchart/core/internal';
import type { Subscription } from 'rxjs';
import type { AnyEventObject } from 'xstate';
import type { AgentContext, ReplyDraft } from './agentContext.js';
import { type FusedStepSlot, type StepDoneEvent, type StepsTakenEvent, batchRunsWithoutDecision, emitFusedStepEvent } from './fusedStep.js';
import { type FusedStepIo, FusedStepRun } from './fusedStepRun.js';

/** Asks the model caller to make one model call. */
export interface CallModelCommand {
  type: 'model.call';
  model: ChatModel;
  request: ChatRequest;
  /**
   * Set when the step may be fused (see `fusedStep.ts`): the context the
   * step started with, its number and its `model.request` event (emitted
   * here, before the step's other events). A reply whose calls need no decision
   * is then taken and its batch run here, and the agent gets one `step.done`.
   */
  fuse?: { context: AgentContext; step: number; announce: RunEvent };
}

/** A finished model reply: the draft plus the usage it reported. */
export interface ModelReply extends ReplyDraft {
  usage?: Usage;
  /** Why the model stopped (absent when its stream ended without a `finish` event). */
  finishReason?: FinishReason;
}

/**
 * Adds one event of a model's stream to the reply being assembled (what the
 * caller reports of it, deltas and malformed replies, is the caller's own).
 * @example
 * const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
 * addToReply(reply, { type: 'text-delta', text: 'Hi' }); // reply.text === 'Hi'
 */
export function addToReply(reply: ModelReply, event: ModelEvent): void {
  switch (event.type) {
    case 'text-delta':
      reply.text += event.text;
      return;
    case 'reasoning-delta':
      reply.reasoning += event.text;
      return;
    case 'tool-call':
      // The reply's list goes into the transcript: its first call makes a one-element list (most replies have
      // one call), where a push would give it room for 17 that the transcript would keep.
      if (reply.toolCalls.length === 0) reply.toolCalls = [event.call];
      else reply.toolCalls.push(event.call);
      return;
    case 'usage':
      reply.usage = reply.usage === undefined ? event.usage : addUsage(reply.usage, event.usage);
      return;
    case 'finish':
      reply.finishReason = event.reason;
      return;
    case 'malformed-reply':
      reply.malformed = (reply.malformed ?? 0) + 1;
      return;
  }
}

/** What the model caller sends its parent. */
export type ModelCallerEvent =
  | { type: 'model.delta'; kind: 'text' | 'reasoning'; text: string }
  | { type: 'model.malformed'; reason: MalformedReplyReason; message: string }
  | {
      type: 'model.reply';
      reply: ModelReply;
      /** Set when the reply ends a fused loop: the context fields the loop's steps changed, taken before the reply. */
      loop?: Partial<AgentContext>;
    }
  | { type: 'model.failed'; error: unknown }
  | StepDoneEvent
  | StepsTakenEvent;

/** Makes a run's model calls (see `modelCaller`). */
export interface ModelCaller {
  /** Makes the call a command asks for (a running call of the run is unsubscribed first). */
  call(command: CallModelCommand): void;
  /** The run ended: the call in flight is unsubscribed (which aborts the request), a fused step's running calls aborted. */
  stop(): void;
}

/**
 * A run's model caller: makes each model call it is asked for and tells the
 * agent through `sendBack`. Text and reasoning deltas are relayed as they
 * stream in; the whole reply (text, tool calls, usage) follows as one
 * `model.reply`, so a reply costs the agent one event, not one per stream
 * event. `stop` unsubscribes, which aborts the request.
 *
 * A command with `fuse` is a step that may be fused (see `fusedStep.ts`): a
 * reply whose calls need no decision is taken here and its batch run, the
 * run events go out from here to the run's listeners of fused steps (see
 * `onAgentEvents`), and the agent gets one `step.done`. A fused
 * step after which the run simply goes on starts the next model call here
 * (the fused loop, see `fusedStep.ts`): the agent hears from the loop when
 * it ends or reaches a reply the agent must decide on.
 *
 * The agent runs it itself (`agentModelCaller`), or, in an inspected or
 * restored run, as its `model` child actor (`modelCallerActor`).
 *
 * @example
 * const caller = modelCaller((event) => agent.send(event));
 * caller.call({ type: 'model.call', model, request });
 */
export function modelCaller(sendBack: (event: AnyEventObject) => void): ModelCaller {
  let subscription: Subscription | undefined;
  let fused: FusedStepRun | undefined;
  let stopped = false;
  // One per run, made with the first fused batch: aborted only when a step is stopped with calls running.
  let toolController: AbortController | undefined;
  // The run's listeners of fused steps' events (`onAgentEvents`), from the first command that may be fused.
  let slot: FusedStepSlot | undefined;
  const emit = (event: RunEvent) => {
    if (slot !== undefined) emitFusedStepEvent(slot, event);
  };
  const io: FusedStepIo = {
    emit,
    sendBack,
    controller: () => {
      toolController ??= new AbortController();
      return toolController;
    },
    call: (command, loop) => call(command, loop),
  };
  /** One model call: the machine's command, or (`loop`) the fused loop's next step, started by the step before it. */
  const call = (command: CallModelCommand, loop?: FusedStepRun): void => {
    subscription?.unsubscribe();
    const fuse = command.fuse;
    if (fuse !== undefined) {
      slot = fuse.context.runtime.fusedStep;
      emit(fuse.announce);
    }
    // Stopped by a listener of the request event, or an abort came as the last step ended: no call.
    if (stopped || (fuse !== undefined && fuse.context.runtime.fusedStep.deferred.length > 0)) return;
    const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
    // A step that may be fused emits its deltas itself, so they keep their place before the step's other events.
    const delta =
      fuse === undefined
        ? (kind: 'text' | 'reasoning', text: string) => sendBack({ type: 'model.delta', kind, text } satisfies ModelCallerEvent)
        : (kind: 'text' | 'reasoning', text: string) =>
            emit({
              type: kind === 'text' ? 'text.delta' : 'reasoning.delta',
              runId: fuse.context.runId,
              agent: fuse.context.runtime.agentName,
              step: fuse.step,
              text,
            } satisfies RunEvent);
    subscription = command.model.stream(command.request).subscribe({
      next: (event: ModelEvent) => {
        // Stopped from a listener while a synchronous stream was still replying (the subscription was not returned yet).
        if (stopped) return;
        addToReply(reply, event);
        if (event.type === 'text-delta') delta('text', event.text);
        else if (event.type === 'reasoning-delta') delta('reasoning', event.text);
        else if (event.type === 'malformed-reply') {
          // The provider asks again within the request: the step counts as an error (see `stepFailed`).
          if (fuse === undefined) sendBack({ type: 'model.malformed', reason: event.reason, message: event.message } satisfies ModelCallerEvent);
          // A step that may be fused reports it itself, like its deltas (what `relayMalformedReply` emits).
          else
            emit({
              type: 'model.malformed',
              runId: fuse.context.runId,
              agent: fuse.context.runtime.agentName,
              step: fuse.step,
              reason: event.reason,
              message: event.message,
            } satisfies RunEvent);
        }
      },
      error: (error: unknown) => {
        if (stopped) return;
        // The machine catches up with the loop first: the failed call is its step's.
        loop?.catchUp();
        sendBack({ type: 'model.failed', error } satisfies ModelCallerEvent);
      },
      complete: () => {
        if (stopped) return;
        // The decision goes by the calls' tools only; the step gives them run-unique ids when it takes the reply.
        if (fuse === undefined || !batchRunsWithoutDecision(fuse.context, reply.toolCalls)) {
          // The machine takes the loop's steps with the reply, in the same event.
          sendBack(
            (loop === undefined ? { type: 'model.reply', reply } : { type: 'model.reply', reply, loop: loop.handOver() }) satisfies ModelCallerEvent,
          );
          return;
        }
        fused = new FusedStepRun(fuse.context, fuse.step, io, loop);
        fused.start(reply);
      },
    });
  };
  return {
    call: (command) => call(command),
    stop: () => {
      stopped = true;
      subscription?.unsubscribe();
      fused?.stop();
    },
  };
}
