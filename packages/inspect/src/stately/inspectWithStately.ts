import { createWebSocketInspector } from '@statelyai/inspect';
import { createInspectorServer } from '@statelyai/inspect/server';
import { connect } from 'node:net';
import type { InspectionEvent, Observer } from 'xstate';
import { DEFAULT_STATELY_PORT } from '../constants.js';
import { sanitizeEvent } from '../trace/inspectionEntries.js';
import { type JsonValue, type SanitizeOptions, sanitizeValue } from '../sanitize/sanitizeValue.js';

/** What `inspectWithStately` takes. */
export interface StatelyInspectorOptions {
  /** The port of the local bridge (HTTP page + WebSocket), default 8080. */
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
  /** The page that shows the Stately inspector (open it in a browser). */
  readonly url: string;
  /** Closes the WebSocket and the bridge server. */
  stop(): void;
}

/**
 * Shows runs in the Stately inspector: starts `@statelyai/inspect`'s local
 * bridge server and a WebSocket inspector connected to it. Every context and
 * event is sanitised first (secrets redacted, `runtime` dropped, long
 * histories and tool results trimmed).
 *
 * @example
 * const stately = inspectWithStately({ port: 8080 });
 * await agent.run('Plan my trip', { inspect: stately.inspect }).result;
 * stately.stop();
 */
export function inspectWithStately(options: StatelyInspectorOptions = {}): StatelyInspector {
  const port = options.port ?? DEFAULT_STATELY_PORT;
  const server = createInspectorServer({ port, autoOpen: options.open ?? true });
  const inspector = createWebSocketInspector({
    url: `ws://localhost:${port}`,
    autoStart: false,
    ...statelySanitizers(options.sanitize),
  });
  // Events wait in the inspector's buffer until the bridge listens; connecting earlier would retry only after 5 s.
  void whenListening(port).then(() => inspector.start());
  return {
    inspect: inspector.inspect,
    url: `http://localhost:${port}`,
    stop: () => {
      inspector.stop();
      server.stop();
    },
  };
}

/**
 * The sanitising hooks for any `@statelyai/inspect` inspector: contexts and
 * events, and a last pass over the whole message (snapshots of invoked
 * actors carry their input, which holds the model and tools).
 *
 * @example
 * const inspector = createBrowserInspector({ ...statelySanitizers() });
 */
export function statelySanitizers(sanitize: SanitizeOptions = {}): {
  sanitizeContext: (context: Record<string, unknown>) => Record<string, unknown>;
  sanitizeEvent: <E extends { type: string }>(event: E) => E;
  serialize: <E>(event: E) => E;
} {
  const asRecord = (value: JsonValue): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {});
  return {
    sanitizeContext: (context) => asRecord(sanitizeValue(context, sanitize)),
    sanitizeEvent: (event) => sanitizeEvent(event, sanitize) as typeof event,
    serialize: (event) => sanitizeStatelyMessage(event, sanitize),
  };
}

/**
 * Sanitises a whole inspector message. The machine definition (a JSON string
 * the inspector draws) keeps its size but loses its secrets.
 */
function sanitizeStatelyMessage<E>(event: E, sanitize: SanitizeOptions): E {
  if (typeof event !== 'object' || event === null) return event;
  const { definition, ...rest } = event as { definition?: unknown } & Record<string, unknown>;
  const clean = sanitizeValue(rest, { ...sanitize, maxDepth: sanitize.maxDepth ?? 16 }) as Record<string, unknown>;
  return (typeof definition === 'string' ? { ...clean, definition: withoutSecrets(definition) } : clean) as E;
}

function withoutSecrets(definitionJson: string): string {
  try {
    const limits = { maxStringLength: Number.MAX_SAFE_INTEGER, maxArrayItems: Number.MAX_SAFE_INTEGER, maxDepth: 64, dropKeys: [] };
    return JSON.stringify(sanitizeValue(JSON.parse(definitionJson), limits));
  } catch {
    return '{}';
  }
}

/** Resolves once something accepts connections on the port (or after about 2 s). */
async function whenListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: 'localhost' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
