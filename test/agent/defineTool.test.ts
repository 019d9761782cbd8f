import { ToolDefinitionError, defineTool } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('defineTool', () => {
  it('generates the JSON Schema the model sees from the zod parameters', () => {
    const tool = defineTool({
      name: 'book_flight',
      description: 'Books a flight.',
      parameters: z.object({
        from: z.string().describe('IATA code of the departure airport'),
        to: z.string(),
        passengers: z.number().int().min(1).default(1),
        cabin: z.enum(['economy', 'business']).optional(),
      }),
      execute: () => 'booked',
    });
    expect(tool.jsonSchema).toEqual({
      type: 'object',
      properties: {
        from: { type: 'string', description: 'IATA code of the departure airport' },
        to: { type: 'string' },
        passengers: { type: 'integer', minimum: 1, maximum: 9007199254740991, default: 1 },
        cabin: { type: 'string', enum: ['economy', 'business'] },
      },
      required: ['from', 'to'],
    });
    expect(tool.spec).toEqual({ name: 'book_flight', description: 'Books a flight.', parameters: tool.jsonSchema });
  });

  it('rejects a name providers would refuse, saying what is allowed', () => {
    expect(() => defineTool({ name: 'get weather', description: 'x', parameters: z.object({}), execute: () => null })).toThrowError(
      /Use 1 to 64 letters, digits, underscores or hyphens/,
    );
    try {
      defineTool({ name: 'x'.repeat(65), description: 'x', parameters: z.object({}), execute: () => null });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).code).toBe('TOOL_DEFINITION_INVALID');
    }
  });

  it('rejects parameters that are not an object schema', () => {
    expect(() =>
      defineTool({
        name: 'count',
        description: 'x',
        parameters: z.string() as unknown as z.ZodObject,
        execute: () => null,
      }),
    ).toThrowError('The parameters of tool "count" must be a zod object (z.object({...})): models pass tool arguments as a JSON object.');
  });
});
