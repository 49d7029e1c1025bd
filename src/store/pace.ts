// How a fold shares the machine with the requests, and how it is told to stop.

/**
 * Whether a fold rests twice as long as it works (WORK_SLICE_MS at a time): while the server
 * answers, so that on a machine of two cores it takes a third of one from the requests, not all
 * of it. `stopped`: the server is shutting down, and folds this fold's journal and the one
 * written since in one pass; this fold gives up at its next step (FoldStopped).
 */
export interface Pace {
  paced: boolean;
  stopped?: boolean;
}

/** A fold given up because it was told to stop; the data file is as it was. */
export class FoldStopped extends Error {}

export function checkStopped(pace: Pace): void {
  if (pace.stopped) {
    throw new FoldStopped('the fold was stopped');
  }
}

/** A paced fold rests this many times as long as it has worked. */
export const REST_PER_WORK = 2;
