import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import { ApiError } from '../../../platform/errors';
import type { PageDeps } from '../../../platform/family';
import type { PageTokens } from '../../../platform/http/page-tokens';
import type { Runtime } from '../../../platform/runtime';
import type { ServiceContext } from '../../../platform/service-context';
import { money } from '../../../web/homeowner/format';
import { formLimit, found, readForm, refused } from '../../../web/homeowner/forms';
import { lookup } from '../../../web/ui/lookup';
import { notFoundPage } from '../../../web/ui/not-found';
import { toCents } from '../../common/cents';
import type { Invoice } from '../../invoices/api';
import { getInvoice, invoiceDoc, presentInvoice, viewInvoice } from '../../invoices/api';
import { PaymentCreateSchema } from '../schema';
import { createPayment } from '../service';
import { PayPage, type PayView } from './pay-page';

// An invoice's `payment_url`: the homeowner pays it online. The payment is the API's own
// (createPayment, as POST /payments), marked `online`, so the invoice's balance and status, the
// job's money and the events (payment.received, invoice.paid, job.updated) follow as they do for
// any payment.

interface Held {
  ctx: ServiceContext;
  rec: Invoice;
}

/**
 * The form is bound to the amount paid when the page was made: a payment recorded since (another
 * tab, a check logged in the app, this form sent twice) makes it stale, and it is shown again
 * with the new balance instead of paying twice.
 */
const payBinding = (id: string, paidBefore: string) => ['invoice-pay', id, paidBefore];

// decisions.md: what the homeowner pays for, as the job's money tab files it.
const PAYMENT_TYPE = {
  deductible: 'deductible',
  supplement: 'supplement',
  depreciation: 'depreciation',
  contract: 'retail',
} as const;

const AMOUNT = /^\$?\s*((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?|\.\d{1,2})$/;

/** Dollars as a person types them: `1,250.50`, `$80`, `.5`; undefined for anything else. */
export function parseAmount(text: string): number | undefined {
  const match = AMOUNT.exec(text.trim());
  return match?.[1] === undefined ? undefined : Number(match[1].replace(/,/g, ''));
}

/** Why the homeowner cannot pay this invoice here; undefined when the form is offered. */
function whyNot(h: Held): string | undefined {
  const company = h.ctx.workspace.name;
  if (presentInvoice(h.ctx, h.rec).payment_url === null) {
    if (h.rec.status === 'paid') {
      return 'This invoice is paid in full. Thank you.';
    }
    if (h.rec.status === 'void') {
      return `${company} cancelled this invoice: nothing is due on it.`;
    }
    // A draft, or one never sent that a payment logged in the app made partially paid.
    if (h.rec.sent_at === null) {
      return `${company} has not sent this invoice yet.`;
    }
    return `This invoice cannot be paid online. Contact ${company} to pay it.`;
  }
  // spec, Payment: a payment belongs to a job; an invoice billed to a contact alone has none.
  return h.rec.job_id === null
    ? `This invoice cannot be paid online. Contact ${company} to pay it.`
    : undefined;
}

/** What is wrong with the amount the homeowner typed; undefined when it can be paid. */
function amountProblem(h: Held, amount: number | undefined): string | undefined {
  if (amount === undefined) {
    return 'Enter the amount in dollars, for example 250.00.';
  }
  const cents = toCents(amount);
  const balance = toCents(h.rec.balance_due);
  if (cents <= 0n) {
    return 'Enter an amount greater than $0.00.';
  }
  if (cents > balance) {
    return `That is more than the balance due (${money(h.rec.balance_due)}).`;
  }
  if (!h.rec.allow_partial_payments && cents !== balance) {
    return `This invoice is paid in full, in one payment of ${money(h.rec.balance_due)}.`;
  }
  return undefined;
}

export function payPages({ rt, tokens }: PageDeps) {
  return new Hono<AppEnv>()
    .get('/pay/:id', (c) => showPayPage(c, rt, tokens))
    .post('/pay/:id', formLimit, (c) => takePayment(c, rt, tokens));
}

/** The invoice the address names, read afresh; undefined for the 404 page. */
function held(rt: Runtime, c: Context<AppEnv>): Held | undefined {
  const h = lookup(rt, 'invoices', c.req.param('id') ?? '', appUrlFor(rt.config, c.req.url));
  const rec = h && found(() => getInvoice(h.ctx, h.rec.id));
  return h && rec ? { ctx: h.ctx, rec } : undefined;
}

function render(
  c: Context<AppEnv>,
  tokens: PageTokens,
  h: Held,
  status: 200 | 400 | 409,
  extra: Pick<PayView, 'error' | 'notice' | 'receipt' | 'filled'> = {},
) {
  return c.html(
    <PayPage
      v={{
        rec: h.rec,
        doc: invoiceDoc(h.ctx, h.rec),
        why: whyNot(h),
        token: tokens.issue(payBinding(h.rec.id, String(h.rec.amount_paid))),
        ...extra,
      }}
    />,
    status,
  );
}

function showPayPage(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const h = held(rt, c);
  if (!h) {
    return notFoundPage(c, 'invoice', 'homeowner');
  }
  // decisions.md: opening the pay page while it is on is the homeowner opening the invoice.
  const opened = whyNot(h) === undefined && c.req.method !== 'HEAD';
  const rec = opened ? viewInvoice(h.ctx, h.rec.id) : h.rec;
  const paid = c.req.query('receipt');
  const receipt = paid ? h.ctx.ws.get('payments', paid.toLowerCase()) : undefined;
  return render(c, tokens, { ...h, rec }, 200, {
    receipt: receipt?.invoice_id === rec.id && receipt.online ? receipt : undefined,
  });
}

/** The form's post: refused, shown again (off, stale or wrong), or paid and redirected. */
async function takePayment(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const h = held(rt, c);
  if (!h) {
    return notFoundPage(c, 'invoice', 'homeowner');
  }
  const form = await readForm(c);
  const paidBefore = form.paid_before ?? '';
  if (!tokens.verify(payBinding(h.rec.id, paidBefore), form.page_token)) {
    return refused(c);
  }
  if (whyNot(h) !== undefined) {
    return render(c, tokens, h, 409);
  }
  if (paidBefore !== String(h.rec.amount_paid)) {
    return render(c, tokens, h, 409, {
      notice: `A payment was recorded since this page was opened: the balance due is now ${money(h.rec.balance_due)}. Nothing was charged.`,
    });
  }
  return charge(c, tokens, h, form);
}

/** A fresh form's amount and name checked, then the payment made as POST /payments makes it. */
function charge(c: Context<AppEnv>, tokens: PageTokens, h: Held, form: Record<string, string>) {
  const filled = { amount: form.amount, card_name: form.card_name };
  const amount = parseAmount(form.amount ?? '');
  const cardName = (form.card_name ?? '').trim();
  const problem =
    amountProblem(h, amount) ??
    (cardName === '' || cardName.length > 200 ? 'Enter the name on the card.' : undefined);
  if (problem !== undefined || amount === undefined || h.rec.job_id === null) {
    return render(c, tokens, h, 400, { error: problem, filled });
  }
  try {
    const payment = createPayment(
      h.ctx,
      PaymentCreateSchema.parse(onlinePayment(h, h.rec.job_id, amount, cardName)),
      { online: true },
    );
    // Post, then redirect: a reload shows the receipt instead of paying again.
    return c.redirect(`/pay/${h.rec.id}?receipt=${payment.id}`, 303);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_request') {
      return render(c, tokens, h, 400, { error: err.message, filled });
    }
    throw err;
  }
}

/** The body of the payment, as a POST /payments would send it. */
function onlinePayment(h: Held, jobId: string, amount: number, cardName: string) {
  return {
    job_id: jobId,
    invoice_id: h.rec.id,
    amount,
    payment_type:
      (h.rec.purpose && PAYMENT_TYPE[h.rec.purpose as keyof typeof PAYMENT_TYPE]) ?? 'other',
    payer_type: 'homeowner',
    payment_method: 'card',
    notes: `Paid online; name on card: ${cardName}`,
  };
}
