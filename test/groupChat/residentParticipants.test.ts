import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { abortInSecondNestedTurn, customTurns, nestedInStore, nestedTwoTurns, nestedWaitResumed } from './fixtures/residentParticipantScenarios.js';

/** What these chats did when every delegated turn had its own actor (see `residentParticipantScenarios.ts`). */
const before = JSON.parse(readFileSync(new URL('./fixtures/residentParticipantScenarios.before.json', import.meta.url), 'utf8'));
const inspect = () => {};

describe('resident participants: the same events, results and snapshots as with an actor per delegated turn', () => {
  it('a nested chat takes two turns of the outer run', async () => {
    expect(await nestedTwoTurns()).toEqual(before.nestedTwoTurns);
    expect(await nestedTwoTurns(inspect)).toEqual(before.nestedTwoTurnsInspected);
  });

  it('a wait for a person inside the nested chat’s second turn is persisted, and resumes the same', async () => {
    expect(await nestedWaitResumed()).toEqual(before.nestedWaitResumed);
    expect(await nestedWaitResumed(inspect)).toEqual(before.nestedWaitResumedInspected);
  });

  it('an abort during the nested chat’s second turn keeps the same partial turns', async () => {
    const aborted = (await abortInSecondNestedTurn()) as { result: { reason: string; turns: { speaker: string }[] } };
    expect(aborted).toEqual(before.abortInSecondNestedTurn);
    expect(aborted.result.reason).toBe('aborted');
    expect(aborted.result.turns.at(-1)).toMatchObject({ speaker: 'team', partial: true });
    expect(await abortInSecondNestedTurn(inspect)).toEqual(before.abortInSecondNestedTurnInspected);
  });

  it('a custom participant takes three turns, and is cut short in its second turn of another run', async () => {
    expect(await customTurns()).toEqual(before.customTurns);
    expect(await customTurns(inspect)).toEqual(before.customTurnsInspected);
  });

  it('a nested chat in a chat kept in a store takes two turns', async () => {
    expect(await nestedInStore()).toEqual(before.nestedInStore);
  });
});
