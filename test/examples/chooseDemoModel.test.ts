import { chooseDemoModel } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOllamaServer } from '../providers/wire/ollamaWire.js';
import { type WireServer, unusedPort } from '../providers/wire/wireServer.js';

const fallback = () => scriptedModel([{ text: 'scripted' }]);

describe('the demo’s model choice', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await startOllamaServer();
  });
  afterEach(() => server.close());

  it('uses Ollama when a model is named by flag and a server answers at OLLAMA_HOST', async () => {
    const choice = await chooseDemoModel({ argv: ['--model', 'qwen3:8b'], env: { OLLAMA_HOST: server.url }, fallback });
    expect([choice.model.provider, choice.model.modelName]).toEqual(['ollama', 'qwen3:8b']);
    expect(choice.description).toBe(`ollama "qwen3:8b" at ${server.url} (Ollama 0.12.0)`);
  });

  it('takes the model name from AGENTCHART_MODEL, then OLLAMA_MODEL', async () => {
    const fromEnv = await chooseDemoModel({
      argv: [],
      env: { OLLAMA_HOST: server.url, OLLAMA_MODEL: 'llama3.2', AGENTCHART_MODEL: 'qwen3' },
      fallback,
    });
    expect(fromEnv.model.modelName).toBe('qwen3');
    const fromOllamaModel = await chooseDemoModel({ argv: ['--model='], env: { OLLAMA_HOST: server.url, OLLAMA_MODEL: 'llama3.2' }, fallback });
    expect(fromOllamaModel.model.modelName).toBe('llama3.2');
  });

  it('falls back to the scripted model, saying why, when no server answers', async () => {
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const choice = await chooseDemoModel({ argv: ['--model=qwen3'], env: { OLLAMA_HOST: host }, fallback });
    expect(choice.model.provider).toBe('scripted');
    expect(choice.description).toBe(
      `scripted (deterministic): no Ollama server answered at ${host}. Start one with \`ollama serve\` to run "qwen3".`,
    );
  });

  it('falls back to the scripted model when no model is named, even with a server running', async () => {
    const choice = await chooseDemoModel({ argv: [], env: { OLLAMA_HOST: server.url }, fallback });
    expect(choice.model.provider).toBe('scripted');
    expect(choice.description).toContain('name a model: --model qwen3:8b');
  });
});
