import type { ServiceContext } from '../../platform/context';
import { isReceived } from '../payments/schema';
import type { Job } from './schema';

/**
 * decisions.md, total_job_value: an insurance job is worth the claim, RCV plus supplements
 * (the estimate until an RCV is known); a retail job is worth its contract (final_amount), else
 * its estimate. null when nothing is known.
 */
export function totalJobValue(job: Job): number | null {
  if (job.job_type === 'insurance') {
    return job.rcv_amount === null
      ? job.estimated_amount
      : round(job.rcv_amount + (job.supplements_amount ?? 0));
  }
  return job.final_amount ?? job.estimated_amount;
}

/**
 * Money in hand per job: each job's payments that are no longer only expected, refunds netted,
 * from one pass over the payments (of `onlyJobId`'s alone when given). A list groups them once
 * for all its jobs instead of passing over every payment for each job.
 */
export function receivedByJob(ctx: ServiceContext, onlyJobId?: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const payment of ctx.ws.values('payments')) {
    if ((onlyJobId === undefined || payment.job_id === onlyJobId) && isReceived(payment)) {
      sums.set(payment.job_id, (sums.get(payment.job_id) ?? 0) + payment.amount);
    }
  }
  for (const [id, sum] of sums) {
    sums.set(id, round(sum));
  }
  return sums;
}

/** The money figures of a job, given its money in hand (see receivedByJob). */
export function jobMoney(job: Job, received: number) {
  const total = totalJobValue(job);
  return {
    total_job_value: total,
    amount_received: received,
    balance_due: total === null ? null : round(Math.max(total - received, 0)),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
