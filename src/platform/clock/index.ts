export { Clock } from './clock';
export { Clocks } from './clocks';
export { Scheduler } from './scheduler';
