import { Lines, PartyFacts } from '../../../web/homeowner/document-parts';
import type { EstimateDoc } from '../../../web/homeowner/documents';
import { day, money, tierName } from '../../../web/homeowner/format';
import { Page } from '../../../web/ui/layout';
import type { Estimate } from '../schema';

export interface EstimateView {
  rec: Estimate;
  doc: EstimateDoc;
  /** Whether the clock has passed valid_until (it may not have expired on the clock's run yet). */
  passed: boolean;
  signToken: string;
  declineToken: string;
  /** What went wrong with the last post, shown above the form. */
  error?: string | undefined;
  /** What the last post changed, shown at the top. */
  done?: 'signed' | 'declined' | undefined;
  /** The form as the homeowner filled it, when it comes back with an error. */
  filled?: { signer_name?: string | undefined; selected_tier?: string | undefined } | undefined;
}

const base = (id: string) => `/view/estimates/${id}`;

/** Why an estimate cannot be signed, in the homeowner's words; undefined when it can. */
function whyNot(v: EstimateView): string | undefined {
  const company = v.doc.company;
  switch (v.rec.status) {
    case 'signed':
      return undefined;
    case 'declined':
      return `You declined this ${v.doc.documentType.toLowerCase()}. If you change your mind, ask ${company} to send it again.`;
    case 'expired':
      return `This ${v.doc.documentType.toLowerCase()} expired on ${day(v.doc.validUntil)}. Ask ${company} for a new one.`;
    case 'draft':
      return `${company} has not sent this ${v.doc.documentType.toLowerCase()} yet.`;
    default:
      return v.passed
        ? `This ${v.doc.documentType.toLowerCase()} was valid until ${day(v.doc.validUntil)}. Ask ${company} for a new one.`
        : undefined;
  }
}

function Packages({ v, choosing }: { v: EstimateView; choosing: boolean }) {
  const chosen = v.filled?.selected_tier ?? v.rec.selected_tier;
  return (
    <div class="tiers">
      {v.doc.packages.map((p) => (
        <section class={`card tier${chosen === p.name ? ' chosen' : ''}`}>
          <h3>
            {choosing ? (
              <label>
                <input
                  type="radio"
                  name="selected_tier"
                  value={p.name}
                  required
                  checked={chosen === p.name}
                />{' '}
                {tierName(p.name)}
              </label>
            ) : (
              tierName(p.name)
            )}
          </h3>
          <p class="tier-total">{money(p.total)}</p>
          <ul>
            {p.lines.map((l) => (
              <li>{l.name}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function SignForm({ v }: { v: EstimateView }) {
  const id = v.rec.id;
  return (
    <>
      <form method="post" action={`${base(id)}/sign`} class="card">
        <input type="hidden" name="page_token" value={v.signToken} />
        {v.doc.packages.length > 0 ? (
          <>
            <h2>Choose a package</h2>
            <Packages v={v} choosing />
          </>
        ) : null}
        <h2>Sign</h2>
        <label>
          Type your full name to sign
          <input
            type="text"
            name="signer_name"
            class="signature"
            required
            maxlength={200}
            autocomplete="name"
            value={v.filled?.signer_name ?? v.doc.customer ?? ''}
          />
        </label>
        <p class="muted">
          By signing you accept this {v.doc.documentType.toLowerCase()} from {v.doc.company}.
        </p>
        <button type="submit" class="primary">
          Sign
        </button>
      </form>
      <form method="post" action={`${base(id)}/decline`} class="inline">
        <input type="hidden" name="page_token" value={v.declineToken} />
        <button type="submit" class="danger">
          Decline
        </button>
      </form>
    </>
  );
}

function Outcome({ v }: { v: EstimateView }) {
  if (v.rec.status === 'signed') {
    return (
      <div class="notice ok">
        <p>
          {v.done === 'signed' ? 'Thank you. ' : ''}Signed by <strong>{v.rec.signer_name}</strong>{' '}
          on {day(v.rec.signed_at)}
          {v.rec.selected_tier ? `, ${tierName(v.rec.selected_tier)} package` : ''}.
        </p>
        <p>
          <a href={`/estimates/${v.rec.id}/signed.pdf`}>Download the signed copy (PDF)</a>
        </p>
      </div>
    );
  }
  const why = whyNot(v);
  return why ? <div class={`notice${v.done === 'declined' ? ' ok' : ''}`}>{why}</div> : null;
}

export function EstimatePage({ v }: { v: EstimateView }) {
  const d = v.doc;
  const open = (v.rec.status === 'sent' || v.rec.status === 'viewed') && !v.passed;
  return (
    <Page
      title={`${d.documentType} ${d.number} · ${d.company}`}
      area="homeowner"
      styles={['/_app/homeowner.css']}
    >
      <p class="muted">{d.company}</p>
      <h1>{d.title}</h1>
      <Outcome v={v} />
      {v.error ? <div class="notice bad">{v.error}</div> : null}
      <div class="card">
        <PartyFacts party={d} number={d.number} label={d.documentType} />
        {d.validUntil ? <p class="muted">Valid until {day(d.validUntil)}.</p> : null}
      </div>
      <h2>Scope of work</h2>
      <Lines
        lines={d.scope}
        {...(d.packages.length === 0 && d.price === null ? { total: d.total } : {})}
      />
      {!open && d.packages.length > 0 ? (
        <>
          <h2>Packages</h2>
          <Packages v={v} choosing={false} />
        </>
      ) : null}
      {d.upgrades.length > 0 ? (
        <>
          <h2>Optional upgrades</h2>
          <p class="muted">Quoted outside the price: ask for any you want.</p>
          <Lines
            lines={d.upgrades.map((u) => ({
              name: u.name,
              quantity: 1,
              unitPrice: u.price,
              amount: u.price,
            }))}
          />
        </>
      ) : null}
      {d.packages.length === 0 || d.price !== null || v.rec.selected_tier !== null ? (
        <p class="big-total">
          {d.totalLabel}: <strong>{money(d.total)}</strong>
        </p>
      ) : null}
      {open ? <SignForm v={v} /> : null}
      <p>
        <a href={`/estimates/${v.rec.id}/pdf`}>Download as PDF</a>
      </p>
    </Page>
  );
}
