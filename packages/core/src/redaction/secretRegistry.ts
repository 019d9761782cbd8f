/**
 * The exact values of credentials the runtime holds (provider API keys,
 * OpenAPI credentials, MCP tokens, ...). Whoever holds a credential registers
 * it, and every redaction replaces it wherever it appears. Process-wide: a
 * trace recorder redacts the key of a provider it never saw.
 */
const secrets = new Map<string, number>();
let ordered: readonly string[] = [];

/** Shorter values are not registered: they would match ordinary text. Key names still cover them. */
export const MIN_REGISTERED_SECRET_LENGTH = 6;

/**
 * Registers credential values so that every redaction (traces, the live view,
 * the Stately bridge, error messages, OpenAPI responses) replaces them.
 * Returns a function that unregisters them again (registrations are counted:
 * a value registered twice stays until both are undone). Values shorter than
 * `MIN_REGISTERED_SECRET_LENGTH` and non-strings are ignored.
 *
 * @example
 * const forget = registerSecrets([process.env.MCP_TOKEN]);
 * redactText(`token=${process.env.MCP_TOKEN}`); // 'token=[redacted]'
 * forget();
 */
export function registerSecrets(values: Iterable<string | undefined | null>): () => void {
  const added: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_REGISTERED_SECRET_LENGTH) continue;
    secrets.set(value, (secrets.get(value) ?? 0) + 1);
    added.push(value);
  }
  if (added.length > 0) reorder();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const value of added) {
      const count = (secrets.get(value) ?? 1) - 1;
      if (count <= 0) secrets.delete(value);
      else secrets.set(value, count);
    }
    if (added.length > 0) reorder();
  };
}

/** The registered values, longest first (so a value that contains another is replaced whole). */
export function registeredSecrets(): readonly string[] {
  return ordered;
}

function reorder(): void {
  ordered = [...secrets.keys()].sort((a, b) => b.length - a.length);
}
