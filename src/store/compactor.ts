import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type FoldResult, foldIntoDataFile } from './fold';
import { FoldStopped, type Pace } from './pace';
import { StoreFileError } from './types';

// A compaction runs in a worker thread: reading, copying and writing a data file of hundreds of
// MB, and the garbage that makes, stay off the event loop that answers requests (issue 21). The
// worker is its own small bundle beside svc's (dist/compact-worker.cjs); without it (svc run
// from its sources unbuilt) the same fold runs here, its awaits letting requests in between.

/** What the worker posts back. */
export type WorkerAnswer =
  | { result: FoldResult }
  | { error: string; storeFile: boolean; stopped: boolean };

export interface FoldJob {
  dataPath: string;
  journals: string[];
  /** While serving: the fold rests twice as long as it works (fold.ts, Pace). */
  paced: boolean;
  /** The data file is as svc wrote it: its layout needs no checksum read first (fold.ts). */
  trusted?: boolean;
}

function workerFile(): string | undefined {
  const dist = typeof SVC_DIST === 'string' ? SVC_DIST : undefined;
  const file = dist === undefined ? undefined : join(dist, 'compact-worker.cjs');
  return file !== undefined && existsSync(file) ? file : undefined;
}

/**
 * A fold under way: its result, and a way to have it give up (shutdown folds its journal and the
 * one written since in one pass); `done` then rejects with FoldStopped.
 */
export interface Compaction {
  done: Promise<FoldResult>;
  stop(): void;
}

/** Folds `journals` into the data file, in a worker thread when svc is built. */
export function compactFiles(job: FoldJob): Compaction {
  const file = workerFile();
  if (file === undefined) {
    const pace: Pace = { paced: job.paced };
    return {
      done: foldIntoDataFile(job.dataPath, job.journals, pace, job.trusted),
      stop: () => {
        pace.stopped = true;
      },
    };
  }
  const worker = new Worker(file, { workerData: job });
  const done = new Promise<FoldResult>((resolve, reject) => {
    let answered = false;
    worker.once('message', (answer: WorkerAnswer) => {
      answered = true;
      if ('result' in answer) {
        resolve(answer.result);
      } else {
        const Failure = answer.stopped ? FoldStopped : answer.storeFile ? StoreFileError : Error;
        reject(new Failure(answer.error));
      }
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) {
        reject(new Error(`the compaction worker stopped (exit code ${code}) before answering`));
      }
    });
  });
  return { done, stop: () => worker.postMessage(STOP) };
}

export const STOP = 'stop';
