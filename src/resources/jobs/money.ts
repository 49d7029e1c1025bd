import type { ServiceContext } from '../../context';
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

/** Money in hand on the job: its payments that are no longer only expected, refunds netted. */
export function amountReceived(ctx: ServiceContext, job: Job): number {
  let sum = 0;
  for (const payment of ctx.ws.values('payments')) {
    if (payment.job_id === job.id && isReceived(payment)) {
      sum += payment.amount;
    }
  }
  return round(sum);
}

export function jobMoney(ctx: ServiceContext, job: Job) {
  const total = totalJobValue(job);
  const received = amountReceived(ctx, job);
  return {
    total_job_value: total,
    amount_received: received,
    balance_due: total === null ? null : round(Math.max(total - received, 0)),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
