// The compaction worker's entry (built as dist/compact-worker.cjs): folds the journals it is
// given into the data file and posts the result back (compactor.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { type FoldJob, STOP, type WorkerAnswer } from './compactor';
import { foldIntoDataFile } from './fold';
import { FoldStopped, type Pace } from './pace';
import { StoreFileError } from './types';

const job = workerData as FoldJob;
const pace: Pace = { paced: job.paced };
parentPort?.on('message', (message: unknown) => {
  if (message === STOP) {
    pace.stopped = true;
  }
});
const answer = (message: WorkerAnswer) => {
  parentPort?.postMessage(message);
  parentPort?.close(); // its message listener would keep the thread alive
};
foldIntoDataFile(job.dataPath, job.journals, pace, job.trusted).then(
  (result) => answer({ result }),
  (err: Error) =>
    answer({
      error: err.message,
      storeFile: err instanceof StoreFileError,
      stopped: err instanceof FoldStopped,
    }),
);
