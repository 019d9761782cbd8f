import { request } from 'node:http';
import { createAgent } from '@agentchart/actors';
import { type AgUiListener, serveAgUi } from '@agentchart/ag-ui';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';

const listeners: AgUiListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function serve(options: { maxBodyBytes?: number; allowedOrigins?: string[] } = {}) {
  const agent = createAgent({ name: 'echo', model: scriptedModel([{ text: 'hi' }]) });
  const listener = await serveAgUi({ agents: [agent], ...options }).listen();
  listeners.push(listener);
  return listener;
}

/** A raw request, so `Host` and `Origin` can be set as a rebinding page or another site would. */
function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const input = JSON.stringify({ threadId: 't', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'Hi' }], tools: [], context: [] });

describe('the AG-UI server at the HTTP boundary', () => {
  it('binds to 127.0.0.1 by default', async () => {
    const listener = await serve();
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a Host that is not loopback (DNS rebinding) with 421 and a foreign Origin with 403', async () => {
    const listener = await serve({ allowedOrigins: ['https://app.example.com'] });
    const port = new URL(listener.url).port;
    const rebound = await post(listener.urlOf('echo'), input, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    const foreign = await post(listener.urlOf('echo'), input, { origin: 'https://evil.example' });
    expect(foreign).toMatchObject({
      status: 403,
      text: 'Pages of https://evil.example may not call this AG-UI server: add the origin to allowedOrigins (--allow-origin).',
    });
    const allowed = await post(listener.urlOf('echo'), input, { origin: 'https://app.example.com' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.text).toContain('"type":"RUN_FINISHED"');
  });

  it('bounds the body (413), and answers 404 for an unknown name and 400 for a body that is not a RunAgentInput', async () => {
    const listener = await serve({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ threadId: 't', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'x'.repeat(2000) }] });
    expect((await post(listener.urlOf('echo'), big)).status).toBe(413);
    const unknown = await post(listener.urlOf('nobody'), input);
    expect(unknown).toMatchObject({ status: 404, text: 'Not found: the served agents and chats are /ag-ui/echo.' });
    const notInput = await post(listener.urlOf('echo'), JSON.stringify({ threadId: 't' }));
    expect(notInput.status).toBe(400);
    expect(notInput.text).toMatch(/^The body is not a valid RunAgentInput: runId: /);
    const badId = await post(listener.urlOf('echo'), input.replace('"threadId":"t"', '"threadId":"a/b"'));
    expect(badId).toMatchObject({ status: 400, text: 'threadId and runId must be 1 to 200 letters, digits, "_", "-", ".", ":" or "@".' });
  });
});
