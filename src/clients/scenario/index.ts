// The scenario engine: `svc scenario run`, `svc trigger` and the shipped-scenarios test use this.

export { findFiles, type Loaded, loadFile, MissingPath } from './load';
export { isMatcher, type Mismatch, match, matchHeader } from './matchers';
export { type Inbox, type Receiver, startReceiver } from './receiver';
export { junitXml, resultLine, summaryLine } from './report';
export {
  DEFAULT_PATH,
  newSession,
  type Report,
  type RunOptions,
  runScenarios,
  type ScenarioResult,
} from './runner';
export { type Scenario, ScenarioSchema, type Step } from './schema';
export { type Session, SkipScenario, StepFailure, type StepRecord } from './session';
export { labelOf, runSteps, type StepHooks } from './steps';
export { substitute, UnknownName } from './substitute';
export {
  checkControlReach,
  hasControlApi,
  type Keys,
  normalizeBase,
  openTarget,
  type Target,
  UsageError,
} from './target';
