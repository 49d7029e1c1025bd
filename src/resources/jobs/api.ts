// What other families use of the jobs family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { jobRecords } from './present';
export { type Job, JobSchema } from './schema';
export { createJob } from './service';
