/**
 * Leaked-secret shapes as they turn up in practice: provider keys, tokens,
 * JWTs, PEM keys, authorization headers. Every value here must be gone from
 * whatever the redaction service returns.
 */
export const LEAKED_VALUES: readonly string[] = [
  'sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD',
  'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90',
  'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFG',
  'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  'gho_0123456789abcdefghijABCDEFGHIJ012345',
  'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS',
  'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx',
  'xoxp-123456789012-1234567890123-abcdefghijklmnopqrstuvwx',
  'AKIAIOSFODNN7EXAMPLE',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  'sk_live_51Habcdefghijklmnopqrstuv',
  'glpat-abcdefghij0123456789',
  'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
];

/** The secret part of texts whose surroundings stay. */
export const LEAKED_IN_TEXT: readonly { text: string; secret: string }[] = [
  { text: 'Authorization: Bearer abc.def-ghi_jkl~mno+pqr/stu=', secret: 'abc.def-ghi_jkl~mno+pqr/stu=' },
  { text: 'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw=="', secret: 'dXNlcjpwYXNzd29yZDEyMw==' },
  {
    text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n-----END RSA PRIVATE KEY-----',
    secret: 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw',
  },
  {
    text: 'key file: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7 (cut)',
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  },
  {
    text: '{"stored":true,"echo":{"aws_secret_access_key":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { text: 'GET /report?city=Oslo&api_key=q9w8e7r6t5y4&units=metric', secret: 'q9w8e7r6t5y4' },
  { text: 'export DB_PASSWORD=correct-horse-battery\nexport PORT=8080', secret: 'correct-horse-battery' },
  { text: "settings: {'openaiKey': 'plainish-value-123'}", secret: 'plainish-value-123' },
  { text: 'Incorrect API key provided: sk-proj-XyZ0123456789abcdefghij. You can find your API key at …', secret: 'sk-proj-XyZ0123456789abcdefghij' },
];

/** Secret-named keys, each with a value that has no secret shape (only the key gives it away). */
export const SECRET_KEYS: readonly string[] = [
  'aws_secret_access_key',
  'openaiKey',
  'pin',
  'password',
  'passwd',
  'apiKey',
  'api_key',
  'x-api-key',
  'Authorization',
  'client_secret',
  'accessToken',
  'refresh_token',
  'sessionId',
  'session',
  'cookie',
  'Set-Cookie',
  'privateKey',
  'credentials',
  'auth',
  'AUTH_TOKEN',
  'db.password',
  'stripeSecretKey',
  'access-key-id',
];

/** Keys that only look secret-ish: their values stay. */
export const ORDINARY_KEYS: readonly string[] = [
  'keyboard',
  'pinned',
  'author',
  'key',
  'keys',
  'inputTokens',
  'maxTokens',
  'outputTokens',
  'monkey',
  'spinner',
  'tokenizerName',
  'keynote',
  'authors',
];
