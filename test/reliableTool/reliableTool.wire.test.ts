import { ValidationResultSchema, reliableTool } from '@agentchart/actors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ollamaAdapter, openaiAdapter } from '../providers/wire/providerAdapters.js';
import type { WireServer } from '../providers/wire/wireServer.js';
import { priceTool } from './fixtures.js';

const { $schema: _ignored, ...validationSchema } = z.toJSONSchema(ValidationResultSchema);
const runnerTurn = { toolCalls: [{ name: 'lookup_price', id: 'call_1', arguments: { hypothesis: 'ACME is named.', symbol: 'ACME' } }] };
const validatorTurn = { text: ['{"valid": true, ', '"justification": "A price for ACME."}'] };

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('reliableTool over the wire', () => {
  it('Ollama: the runner gets a call-only format, the validator the verdict schema as format', async () => {
    server = await ollamaAdapter.startServer();
    server.script(runnerTurn, validatorTurn);
    const { tool } = priceTool();
    const model = ollamaAdapter.model(server.url);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel: model, validatorModel: model });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(details).toMatchObject({ ok: true, value: { symbol: 'ACME', price: 42 }, successfulArgs: { symbol: 'ACME' } });
    const [runner, validator] = server.requests.map((request) => request.body as Record<string, unknown>);
    expect((runner!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['lookup_price']);
    expect(runner?.format).toMatchObject({
      properties: { name: { const: 'lookup_price' }, arguments: { required: ['hypothesis', 'symbol'] } },
    });
    expect(validator?.tools).toBeUndefined();
    expect(validator?.format).toEqual(validationSchema);
  });

  it('OpenAI-compatible: tool_choice required for the runner, a strict json_schema response format for the validator', async () => {
    server = await openaiAdapter.startServer();
    server.script(runnerTurn, validatorTurn);
    const { tool } = priceTool();
    const model = openaiAdapter.model(server.url);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel: model, validatorModel: model });

    expect(await prices.run({ task: 'Price of ACME' })).toEqual({ symbol: 'ACME', price: 42 });
    const [runner, validator] = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(runner).toMatchObject({ tool_choice: 'required', parallel_tool_calls: false });
    expect(validator?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'validation_result', schema: validationSchema, strict: true },
    });
  });
});
