import type { Command } from '../command.js';

/** `agentchart check-model`: a report card of a model on a real server. */
export const checkModel: Command = {
  async run(args) {
    const { checkModelCommand } = await import('../checkModel/checkModelCommand.js');
    return checkModelCommand(args);
  },
};
