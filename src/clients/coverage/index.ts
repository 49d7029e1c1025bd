// svc coverage: what src/cli/coverage.ts calls.
export { computeCoverage, type Traffic } from './compute';
export { type Answer, type Get, httpGet } from './http';
export type { Coverage } from './report';
export { baseOf, readTraffic, SourceProblem } from './source';
export { coverageTable } from './table';
