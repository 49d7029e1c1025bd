// --respond 500,500,200: the statuses accepted, non-duplicate deliveries get, in order of arrival;
// the last one repeats afterwards, so a single value applies to every delivery.

export interface Responder {
  next(): number;
}

export function createResponder(statuses: readonly number[]): Responder {
  if (statuses.length === 0) {
    throw new Error('a responder needs at least one status');
  }
  let index = 0;
  return {
    next() {
      const status = statuses[Math.min(index, statuses.length - 1)] as number;
      index += 1;
      return status;
    },
  };
}
