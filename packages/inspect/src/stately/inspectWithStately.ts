import { execFile } from 'node:child_process';
import type { ActorRefLike, InspectionEvent, Observer } from 'xstate';
import { DEFAULT_STATELY_PORT, STATELY_INSPECTOR_URL, VIEW_HOST } from '../constants.js';
import { actorParents } from '../inspection/actorParents.js';
import { parentOrderedQueue } from '../inspection/parentOrderedQueue.js';
import type { SanitizeOptions } from '../sanitize/sanitizeValue.js';
import { statelyActors } from './statelyActors.js';
import { startStatelyBridge } from './statelyBridge.js';
import { type StatelyActorRecord, sanitizeStatelyPayloads, statelyMessages } from './statelyMessages.js';

/** What `inspectWithStately` takes. */
export interface StatelyInspectorOptions {
  /** The port of the local bridge (HTTP page + WebSocket, on 127.0.0.1), default 8080; 0 picks a free one. */
  port?: number;
  /** Open the inspector page in the default browser (default true). */
  open?: boolean;
  /** How contexts and events are trimmed before they leave the process. */
  sanitize?: SanitizeOptions;
}

/** A running Stately inspector bridge. */
export interface StatelyInspector {
  /** Pass as `inspect` to `createAgent`, `agent.run` or a chat. */
  readonly inspect: Observer<InspectionEvent>;
  /** The page that shows the Stately inspector (open it in a browser); its port is known once `ready` resolves. */
  readonly url: string;
  /** Resolves once the bridge listens (with the page's URL); rejects when it cannot, e.g. when the port is taken. */
  readonly ready: Promise<string>;
  /** Closes the bridge and every connection to it. */
  stop(): void;
}

/**
 * Shows runs in the Stately inspector: a local bridge (an HTTP page that
 * embeds the inspector, and a WebSocket on 127.0.0.1) that speaks
 * `@statelyai/inspect`'s protocol. Every actor is announced once, with its
 * definition, before anything names it, under a session id unique across
 * runs; an inspector page opened late is first told about every actor with
 * its latest snapshot. Contexts, events and definitions are sanitised first
 * (secrets redacted, `runtime` dropped, long histories and tool results
 * trimmed); the protocol's own fields are not.
 *
 * @example
 * const stately = inspectWithStately({ port: 8080 });
 * await agent.run('Plan my trip', { inspect: stately.inspect }).result;
 * stately.stop();
 */
export function inspectWithStately(options: StatelyInspectorOptions = {}): StatelyInspector {
  const port = options.port ?? DEFAULT_STATELY_PORT;
  const parents = actorParents();
  // An actor is announced with its parent, which XState tells when the actor starts: messages wait for it, in order.
  const inOrder = parentOrderedQueue(parents);
  const actors = statelyActors(parents);
  const messages = statelyMessages(options.sanitize);
  const bridge = startStatelyBridge({
    port,
    inspectorUrl: STATELY_INSPECTOR_URL,
    announcements: function* () {
      for (const record of actors.all()) yield messages.actor(record);
    },
  });
  const announce = (record: StatelyActorRecord) => {
    if (bridge.hasReceivers) bridge.send(messages.actor(record));
  };
  const recordOf = (actor: ActorRefLike, snapshot: unknown) => actors.recordOf(actor, announce, snapshot);
  const ready = bridge.listening.then((listeningPort) => `http://${VIEW_HOST}:${listeningPort}`);
  ready.then((url) => options.open !== false && openInBrowser(url)).catch(() => undefined);
  return {
    inspect: {
      next(event) {
        parents.observe(event);
        if (event.type === '@xstate.event') {
          const { actorRef, sourceRef } = event;
          // Snapshots as they are now: an actor's record may be made later, once its parent is known.
          const [targetNow, sourceNow] = [actorRef.getSnapshot(), sourceRef?.getSnapshot()];
          inOrder.push(sourceRef === undefined ? [actorRef] : [actorRef, sourceRef], () => {
            const target = recordOf(actorRef, targetNow);
            const source = sourceRef === undefined ? undefined : recordOf(sourceRef, sourceNow);
            if (bridge.hasReceivers) bridge.send(messages.event(target.sessionId, target.rootId, source?.sessionId, event.event));
          });
        } else if (event.type === '@xstate.snapshot') {
          const { actorRef, snapshot } = event;
          inOrder.push([actorRef], () => {
            const target = recordOf(actorRef, snapshot);
            actors.update(target, snapshot);
            if (bridge.hasReceivers) bridge.send(messages.snapshot(target.sessionId, target.rootId, snapshot, event.event));
          });
        }
      },
    },
    url: `http://${VIEW_HOST}:${port}`,
    ready,
    stop: () => bridge.stop(),
  };
}

/**
 * The sanitising hooks for any `@statelyai/inspect` inspector: contexts and
 * events, and a last pass over each message's payloads (snapshots of invoked
 * actors carry their input, which holds the model and tools; definitions
 * keep their size and lose their secrets). The protocol's own fields
 * (`sessionId`, `parentId`, `sourceId`, `rootId`, `id`, `type`) are left as
 * they are.
 *
 * @example
 * const inspector = createBrowserInspector({ ...statelySanitizers() });
 */
export function statelySanitizers(sanitize: SanitizeOptions = {}): {
  sanitizeContext: (context: Record<string, unknown>) => Record<string, unknown>;
  sanitizeEvent: <E extends { type: string }>(event: E) => E;
  serialize: <E>(event: E) => E;
} {
  return {
    sanitizeContext: (context) => sanitizeStatelyPayloads({ snapshot: { context } }, sanitize).snapshot.context ?? {},
    sanitizeEvent: (event) => sanitizeStatelyPayloads({ event }, sanitize).event,
    serialize: (event) => sanitizeStatelyPayloads(event, sanitize),
  };
}

/** Opens a URL in the default browser; a machine without one just does not open it. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  execFile(command, args, () => undefined);
}
