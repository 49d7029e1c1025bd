export { applyFault, codeOf, MAX_DELAY_MS, sleep } from './middleware';
export {
  type CallFacts,
  type Fault,
  type FaultAction,
  type FaultMatch,
  Faults,
  type NewFault,
  seedOf,
  v1Path,
} from './registry';
