export { chooseDemoModel, type DemoModelChoice, type DemoModelSources } from './chooseDemoModel.js';
export { citationsAgent, citationsScript } from './citations/citationsAgent.js';
export {
  answerQuestion,
  CitationState,
  type Fact,
  keywordSearch,
  LIGHTHOUSE_PASSAGES,
  queryDatabaseTool,
  type TextSearch,
  type ValidatedAnswer,
} from './citations/citationTools.js';
export { type DocDiagram, docDiagrams, docMermaidSources } from './docs/docDiagrams.js';
export { printChatEvents } from './groupChat/printChatEvents.js';
export { readPage, researchTeam, researchTeamScript, searchWeb, type TeamModels } from './groupChat/researchTeam.js';
export { printEvents } from './printEvents.js';
export {
  type Flight,
  flightRunnerScript,
  flightValidatorScript,
  reliableFlightSearch,
  searchFlights,
} from './reliableTool/flightSearch.js';
export { printReliableToolEvents } from './reliableTool/printReliableToolEvents.js';
export { answer, read, researchAgent, researchRules, search } from './research/researchAgent.js';
export { factorial, fibonacci, loadMathTools, mathAgent, mathLoaderScript } from './toolControl/mathLoader.js';
export { paymentAgent, paymentScript, transferMoney } from './toolControl/paymentApproval.js';
export {
  enforceReadBeforeWrite,
  getRecord,
  LAST_FETCHED,
  recordAgent,
  recordGateScript,
  updateRecord,
} from './toolControl/recordGate.js';
export { type RuleScenario, type RuleScenarioName, ruleScenarios, runRuleScenario } from './toolRules/ruleScenarios.js';
export { addReminder, convertCurrency, getWeather, travelTools } from './travelTools.js';
