import type { Context } from 'hono';
import { enable, resend, rotateSecret, sendTest } from '../../admin/webhooks-service';
import type { AppEnv } from '../../platform/app-env';
import { holderOf } from '../../platform/holder-of';
import { action, field, type Inspector, idParam } from './forms';
import { when } from './parts';

// spec, Receiver responses: the forms of a subscription's page (a signed test, rotating the
// secret, re-enabling, resending a delivery), each the control API's service.

const hookPage = (c: Context<AppEnv>) => `/inspector/webhooks/${idParam(c)}`;

export const sendTestDelivery = (ins: Inspector) =>
  action(
    ins,
    (c) => ['webhook.test', idParam(c)],
    hookPage,
    async (c, form) => {
      const sent = await sendTest(ins.rt, ins.rt.deliveries, idParam(c), field(form, 'event'));
      return { text: `Test ${sent.event} sent: ${sent.state}.` };
    },
  );

export const rotateWebhookSecret = (ins: Inspector) =>
  action(
    ins,
    (c) => ['webhook.rotate', idParam(c)],
    hookPage,
    (c) => {
      const { secret, previousExpiresAt, hooks } = rotateSecret(ins.rt, idParam(c));
      const others = hooks.length > 1 ? ` (and the ${hooks.length - 1} made with it)` : '';
      return {
        text: `Secret rotated${others}; the old one keeps signing until ${when(previousExpiresAt)} UTC.`,
        shown: [{ label: 'New secret', value: secret }],
      };
    },
  );

export const enableWebhook = (ins: Inspector) =>
  action(
    ins,
    (c) => ['webhook.enable', idParam(c)],
    hookPage,
    (c) => {
      enable(ins.rt, idParam(c));
      return { text: 'Subscription switched back on; its failure count is back to zero.' };
    },
  );

export const resendDelivery = (ins: Inspector) =>
  action(
    ins,
    (c) => ['delivery.resend', idParam(c)],
    (c) => {
      const d = holderOf(ins.rt.store, 'deliveries', idParam(c));
      return d ? `/inspector/webhooks/${d.record.webhook_id}` : '/inspector/webhooks';
    },
    async (c) => {
      const sent = await resend(ins.rt, ins.rt.deliveries, idParam(c));
      const last = sent.attempts.at(-1);
      const answer = last?.status_code ?? last?.error ?? 'no attempt';
      return { text: `Resent ${sent.event}: ${sent.state} (${String(answer)}).` };
    },
  );
