// What other families use of the hail family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { type HailEvent, historyAt, type Swath, swathsNear } from './model';
