export { Clock } from './clock';
export { Clocks } from './clocks';
export { Scheduler } from './scheduler';

/** No clock goes as far as this: ISO 8601's four-digit years end with 9999 (decisions.md, Clock). */
export const LAST_INSTANT = Date.UTC(9999, 0, 1);
