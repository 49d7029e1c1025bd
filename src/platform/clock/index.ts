export { Clock } from './clock';
export { Scheduler } from './scheduler';
