// svc replay and svc replay deliveries: what src/cli/replay.ts calls.
export { type DeliveryOutcome, readRecorded, sendRecorded } from './deliveries';
export { jsonReport, junitReport, outcomeLines, summary, tally } from './report';
export { type Outcome, replay, type Target } from './run';
export { readSource, type Selection, SourceError, SourceUnreachable } from './source';
