import type { ServiceContext } from '../../platform/context';
import { dollars, maxCents, toCents } from '../common/cents';
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
      : dollars(toCents(job.rcv_amount) + toCents(job.supplements_amount ?? 0));
  }
  return job.final_amount ?? job.estimated_amount;
}

/**
 * Money in hand per job: each job's payments that are no longer only expected, refunds netted,
 * from one pass over the payments (of `onlyJobId`'s alone when given). A list groups them once
 * for all its jobs instead of passing over every payment for each job.
 */
export function receivedByJob(ctx: ServiceContext, onlyJobId?: string): Map<string, number> {
  const sums = new Map<string, bigint>();
  for (const payment of ctx.ws.values('payments')) {
    if ((onlyJobId === undefined || payment.job_id === onlyJobId) && isReceived(payment)) {
      sums.set(payment.job_id, (sums.get(payment.job_id) ?? 0n) + toCents(payment.amount));
    }
  }
  return new Map([...sums].map(([id, sum]) => [id, dollars(sum)]));
}

/** The money figures of a job, given its money in hand (see receivedByJob). */
export function jobMoney(job: Job, received: number) {
  const total = totalJobValue(job);
  return {
    total_job_value: total,
    amount_received: received,
    balance_due: total === null ? null : dollars(maxCents(toCents(total) - toCents(received), 0n)),
  };
}
