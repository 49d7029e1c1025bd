// spec, Delivery body: event_id is the same on retry and resend; dedupe on it.
// An event counts as seen once it was answered 2xx, as a receiver that processes a delivery and
// then acknowledges it would: a retry after a 500 is processed again, a resend after a 200 is a
// duplicate, answered with the same 2xx. The set is bounded so a long session cannot grow
// without limit.

export interface Dedupe {
  /** The 2xx this event id was acknowledged with, or undefined when it is new. */
  seen(eventId: string): number | undefined;
  remember(eventId: string, status: number): void;
}

export function createDedupe(capacity = 100_000): Dedupe {
  const ids = new Map<string, number>();
  return {
    seen: (eventId) => ids.get(eventId),
    remember(eventId, status) {
      ids.delete(eventId);
      ids.set(eventId, status);
      if (ids.size > capacity) {
        const oldest = ids.keys().next();
        if (!oldest.done) {
          ids.delete(oldest.value);
        }
      }
    },
  };
}
