import type { PageDeps } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { Page } from '../../../web/ui/layout';
import { Lines } from '../../../web/ui/lines';
import {
  Crumbs,
  DeletedJobNotice,
  JobLink,
  OfflineLinks,
  onDeletedJob,
} from '../../../web/ui/on-job';
import { Badge, Facts, money, pathOf, type Tone, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { presentEstimate } from '../present';
import type { Estimate } from '../schema';

// Which statuses a badge shows as good news, as waiting on someone, or as trouble.
const TONE: Record<string, Tone> = {
  signed: 'ok',
  sent: 'warn',
  viewed: 'warn',
  declined: 'bad',
  expired: 'bad',
};

export const estimateTone = (status: string | null): Tone => (status ? TONE[status] : undefined);

// GET {app_url}/estimates/{id}: the contractor's view of an estimate: its figures as GET shows
// them, its document, and links to the homeowner's page and the PDFs (the homeowner area's).

type EstimateOut = ReturnType<typeof presentEstimate>;

const packageTotals = (out: EstimateOut): string =>
  out.package_totals
    ? Object.entries(out.package_totals)
        .map(([name, total]) => `${name} ${money(total)}`)
        .join(' · ')
    : '—';

function Details({ ctx, rec, out }: { ctx: ServiceContext; rec: Estimate; out: EstimateOut }) {
  return (
    <Facts
      rows={[
        ['Title', text(out.title)],
        ['Job', <JobLink ctx={ctx} jobId={rec.job_id} />],
        ['Total', money(out.total)],
        ['Packages', packageTotals(out)],
        ['Upgrades', money(out.upgrades_total)],
        ['Chosen package', text(out.selected_tier)],
        ['Signature', text(out.signature_status)],
        ['Valid until', when(out.valid_until)],
        ['Sent', when(out.sent_at)],
        ['Viewed', `${out.view_count} times, last ${when(out.last_viewed_at)}`],
        ['Signed', out.signed_at ? `${when(out.signed_at)} by ${text(out.signer_name)}` : '—'],
        ['Created', when(out.created_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

/** The homeowner's page and the PDFs, those the estimate has. */
function Links({ out }: { out: EstimateOut }) {
  return (
    <p>
      {out.view_url ? <a href={pathOf(out.view_url)}>The homeowner's page</a> : null}
      {out.view_url ? ' · ' : null}
      {out.pdf_url ? <a href={pathOf(out.pdf_url)}>PDF</a> : null}
      {out.signed_pdf_url ? (
        <>
          {' · '}
          <a href={pathOf(out.signed_pdf_url)}>Signed PDF</a>
        </>
      ) : null}
    </p>
  );
}

/** The estimate's document: its scope, each package's lines, the optional upgrades. */
function Document({ rec }: { rec: Estimate }) {
  return (
    <>
      {rec.scope.length ? (
        <>
          <h2>Scope of work</h2>
          <Lines lines={rec.scope} />
        </>
      ) : null}
      {rec.packages.map((p) => (
        <>
          <h2>Package: {p.name}</h2>
          <Lines lines={p.lines} />
        </>
      ))}
      {rec.upgrades.length ? <Upgrades upgrades={rec.upgrades} /> : null}
    </>
  );
}

function Upgrades({ upgrades }: { upgrades: Estimate['upgrades'] }) {
  return (
    <>
      <h2>Optional upgrades</h2>
      <ul>
        {upgrades.map((u) => (
          <li>
            {u.name} <span class="money">{money(u.price)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function estimatePage(deps: PageDeps) {
  return recordPage(deps, '/estimates/:id', 'estimates', 'estimate', (c, { ctx, rec }) => {
    const out = presentEstimate(ctx, rec);
    const title = `Estimate ${out.estimate_number ?? ''}`.trim();
    return c.html(
      <Page title={title}>
        <Crumbs ctx={ctx} kind="Estimate" />
        <h1>
          {title} <Badge tone={estimateTone(out.status)}>{text(out.status)}</Badge>
        </h1>
        <DeletedJobNotice ctx={ctx} jobId={rec.job_id} />
        <div class="card">
          <Details ctx={ctx} rec={rec} out={out} />
          {onDeletedJob(ctx, rec.job_id) ? (
            <OfflineLinks what="The homeowner's page and the PDFs are" />
          ) : (
            <Links out={out} />
          )}
        </div>
        <Document rec={rec} />
      </Page>,
    );
  });
}
