// A CommonJS user: require() of the ES module packages (Node >= 20.19).
const { createAgent } = require('@agentchart/actors');
const { scriptedModel } = require('@agentchart/providers');

const agent = createAgent({ name: 'greeter', model: scriptedModel([{ text: 'Hello from CommonJS.' }]) });
agent.run('Hi').result.then((result) => console.log(`cjs: ${result.stopReason}; ${result.text}`));
