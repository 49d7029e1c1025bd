import type { ServiceContext } from '../../../platform/service-context';
import { addressLine, type EstimateDoc, lineView } from '../../../web/homeowner/documents';
import { dollars, toCents } from '../../common/cents';
import { findJob } from '../../common/job';
import { customerName, findContact } from '../../contacts/api';
import { estimateFigures } from '../figures';
import type { Estimate } from '../schema';

// What the homeowner's page and PDF of an estimate show, by the family's own figures.

export function estimateDoc(ctx: ServiceContext, e: Estimate): EstimateDoc {
  const job = e.job_id === null ? undefined : findJob(ctx, e.job_id);
  const figures = estimateFigures(e);
  return {
    company: ctx.workspace.name,
    customer: customerName(job?.homeowner_id ? findContact(ctx, job.homeowner_id) : undefined),
    address: job ? addressLine(job) : null,
    number: e.estimate_number ?? e.id,
    title: e.title ?? 'Estimate',
    documentType: e.document_type === 'estimate' ? 'Estimate' : 'Proposal',
    validUntil: e.valid_until,
    sentAt: e.sent_at,
    scope: e.scope.map(lineView),
    packages: e.packages.map((p) => ({
      name: p.name,
      lines: p.lines.map(lineView),
      total: figures.package_totals?.[p.name] ?? null,
    })),
    upgrades: e.upgrades.map((u) => ({ name: u.name, price: u.price })),
    price: e.price === null ? null : dollars(toCents(e.price)),
    total: figures.total,
    totalLabel: e.price !== null && e.selected_tier === null ? 'Price for the whole job' : 'Total',
    upgradesTotal: figures.upgrades_total,
    selectedTier: e.selected_tier,
    signerName: e.signer_name,
    signedAt: e.signed_at,
  };
}
