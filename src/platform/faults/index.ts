export { allowFor, type MethodsAt, routeMethods } from './allow';
export { applyFault, codeOf, faultMessage, MAX_DELAY_MS, sleep } from './middleware';
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
