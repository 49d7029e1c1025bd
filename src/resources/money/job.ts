import type { ServiceContext } from '../../platform/service-context';
import type { TxScope, WorkspaceCollections } from '../../store';
import { dollars, maxCents, toCents } from '../common/cents';
import { isReceived } from './received';

type Job = WorkspaceCollections['jobs'];
type Payment = WorkspaceCollections['payments'];

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

/** A job's money in hand, in cents, from the payments of a transaction (see syncReceived). */
export function receivedCents(payments: Iterable<Payment>, jobId: string): bigint {
  let sum = 0n;
  for (const p of payments) {
    if (p.job_id === jobId && isReceived(p)) {
      sum += toCents(p.amount);
    }
  }
  return sum;
}

/**
 * decisions.md, Jobs: a payment change keeps its job's `amount_received`, and touches the job
 * (`updated_at`, `job.updated` listing what moved) when the figure moves, as logging a payment
 * in the app changes the job's money tab.
 */
export function syncReceived(
  ws: TxScope<WorkspaceCollections>,
  jobId: string,
  now: string,
  payments: Iterable<Payment> = ws.all('payments'),
): void {
  const job = ws.get('jobs', jobId);
  if (job === undefined) {
    return;
  }
  const received = dollars(receivedCents(payments, jobId));
  if (job.amount_received !== received) {
    ws.put('jobs', { ...job, amount_received: received, updated_at: now });
  }
}

/**
 * Money in hand per job, for the jobs of a data file from before it was kept on the job: one
 * pass over the payments for a whole list, not one per job.
 */
export function receivedByJob(ctx: ServiceContext): Map<string, number> {
  const sums = new Map<string, bigint>();
  for (const payment of ctx.ws.values('payments')) {
    if (isReceived(payment)) {
      sums.set(payment.job_id, (sums.get(payment.job_id) ?? 0n) + toCents(payment.amount));
    }
  }
  return new Map([...sums].map(([id, sum]) => [id, dollars(sum)]));
}

/** The money figures of a job, given its money in hand. */
export function jobMoney(job: Job, received: number) {
  const total = totalJobValue(job);
  return {
    total_job_value: total,
    amount_received: received,
    balance_due: total === null ? null : dollars(maxCents(toCents(total) - toCents(received), 0n)),
  };
}
