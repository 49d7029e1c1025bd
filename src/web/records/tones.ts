import type { Tone } from './parts';

// Which statuses a badge shows as good news, as waiting on someone, or as trouble.

const ESTIMATE: Record<string, Tone> = {
  signed: 'ok',
  sent: 'warn',
  viewed: 'warn',
  declined: 'bad',
  expired: 'bad',
};

const INVOICE: Record<string, Tone> = {
  paid: 'ok',
  sent: 'warn',
  viewed: 'warn',
  partially_paid: 'warn',
  overdue: 'bad',
  void: 'bad',
  bad_debt: 'bad',
};

const STORM_LIST: Record<string, Tone> = {
  ready: 'ok',
  building: 'warn',
  partial: 'warn',
  failed: 'bad',
};

export const estimateTone = (status: string | null): Tone =>
  status ? ESTIMATE[status] : undefined;
export const invoiceTone = (status: string): Tone => INVOICE[status];
export const stormListTone = (status: string): Tone => STORM_LIST[status];
