import type { DueWork } from '../../platform/family';
import { centralDayEnd } from '../common/central-time';
import type { Invoice } from './schema';

const OPEN = new Set<Invoice['status']>(['sent', 'viewed', 'partially_paid']);

/**
 * decisions.md: an unpaid invoice that is out goes overdue once the clock passes the end of its
 * due date (US Central time), once.
 */
export const invoiceOverdue: DueWork<'invoices'> = {
  coll: 'invoices',
  name: 'invoice-overdue',
  at: (inv) =>
    OPEN.has(inv.status) && inv.due_date !== null && inv.overdue_at === null && inv.balance_due > 0
      ? centralDayEnd(inv.due_date) + 1
      : undefined,
  run(ws, inv, now) {
    ws.put('invoices', { ...inv, status: 'overdue', overdue_at: now, updated_at: now });
  },
};
