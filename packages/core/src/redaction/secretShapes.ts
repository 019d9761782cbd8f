/**
 * Well-known credential shapes, found anywhere inside a string. Each match is
 * replaced, the text around it stays.
 */
const SHAPES: readonly RegExp[] = [
  // PEM private keys, also when the end marker was cut off.
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/,
  // Authorization schemes: the scheme word stays readable.
  /(?<=\b(?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]{8,}/i,
  // JSON Web Tokens: three base64url parts, the first a JSON header.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/,
  // OpenAI and Anthropic keys (sk-…, sk-proj-…, sk-ant-…).
  /\bsk-[A-Za-z0-9_-]{16,}/,
  // Stripe-style live and test keys.
  /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}/,
  // GitHub tokens.
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  // GitLab and Hugging Face tokens.
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bhf_[A-Za-z0-9]{30,}/,
  // Google API keys.
  /\bAIza[0-9A-Za-z_-]{30,}/,
  // Slack tokens.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  // AWS access key ids.
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
];

const GLOBAL_SHAPES = SHAPES.map((shape) => new RegExp(shape.source, `g${shape.flags}`));
/**
 * One cheap pass first: a text without any of these markers holds no shape,
 * and the shapes are not tried. Written case by case: a case-insensitive
 * alternation is several times slower in V8.
 */
const MARKERS = /sk-|[rsp]k_|github_pat_|gh[pousr]_|glpat-|hf_|AIza|xox|A[KS]IA|eyJ|-----BEGIN|[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|TOKEN/;

/**
 * Replaces every credential-shaped part of `text` with `replacement`.
 *
 * @example
 * redactSecretShapes('Incorrect API key provided: sk-abcdefghijklmnop1234.', '[redacted]');
 * // 'Incorrect API key provided: [redacted].'
 */
export function redactSecretShapes(text: string, replacement: string): string {
  if (text.length < 8 || !MARKERS.test(text)) return text;
  let out = text;
  for (const shape of GLOBAL_SHAPES) out = out.replace(shape, replacement);
  return out;
}

/**
 * Whether `text` contains a credential-shaped part.
 *
 * @example
 * containsSecretShape('token: ghp_0123456789abcdefghijABCDEFGHIJ012345'); // true
 */
export function containsSecretShape(text: string): boolean {
  return redactSecretShapes(text, '\u0000') !== text;
}
