import type { PageDeps } from '../../../platform/family';
import type { PageTokens } from '../../../platform/http/page-tokens';
import type { ServiceContext } from '../../../platform/service-context';
import { DeletedNotice } from '../../../web/ui/deleted-notice';
import { Page } from '../../../web/ui/layout';
import { Badge, Capped, Empty, Facts, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { hasContact } from '../../common/job';
import { presentContact } from '../present';
import type { Contact } from '../schema';

// GET {app_url}/contacts/{id}: a contact with the jobs it is on (as GET /contacts/{id}/jobs lists
// them, and the deleted ones marked) and the tasks that name it.

const CAP = 100;

type ContactOut = ReturnType<typeof presentContact>;

interface Shown {
  ctx: ServiceContext;
  rec: Contact;
}

interface HeadingProps extends Shown {
  title: string;
  restored: boolean;
  tokens: PageTokens;
}

/** The line above the title, the title, and a notice when the contact is deleted or just restored. */
function Heading({ ctx, rec, title, restored, tokens }: HeadingProps) {
  return (
    <>
      <p class="muted">
        <a href={`/workspaces/${ctx.workspace.id}`}>{ctx.workspace.name}</a> · Contact
      </p>
      <h1>{title}</h1>
      {restored && rec.deleted_at === null ? <p class="notice ok">Restored.</p> : null}
      {rec.deleted_at ? (
        <DeletedNotice
          coll="contacts"
          id={rec.id}
          deletedAt={rec.deleted_at}
          nowMs={ctx.clock.nowMs()}
          tokens={tokens}
          what="contact"
        />
      ) : null}
    </>
  );
}

function Details({ out }: { out: ContactOut }) {
  return (
    <Facts
      rows={[
        ['Type', out.type],
        ['Email', text(out.email)],
        ['Phone', text(out.phone)],
        ['Company', text(out.company)],
        [
          'Address',
          text([out.address, out.city, out.state, out.postal_code].filter((p) => p).join(', ')),
        ],
        ['Trades', out.trades.length ? out.trades.join(', ') : '—'],
        ['Claim number', text(out.claim_number)],
        ['Assigned to', text(out.assigned_to_name)],
        ['Notes', text(out.notes)],
        ['Created', when(out.created_at)],
        ['Updated', when(out.updated_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

function Jobs({ ctx, rec }: Shown) {
  const jobs = ctx.ws.scan('jobs', { where: (j) => hasContact(j, rec.id), limit: CAP });
  return (
    <>
      <h2>Jobs</h2>
      {jobs.items.length === 0 ? <Empty what="jobs" /> : null}
      <ul>
        {jobs.items.map((j) => (
          <li>
            <a href={`/jobs/${j.id}`}>
              {j.job_number} {j.name ?? j.address}
            </a>
            {j.deleted_at ? (
              <>
                {' '}
                <Badge tone="bad">deleted</Badge>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <Capped more={jobs.hasMore} shown={CAP} what="jobs" />
    </>
  );
}

function Tasks({ ctx, rec }: Shown) {
  const tasks = ctx.ws.scan('tasks', { where: (t) => t.contact_id === rec.id, limit: CAP });
  return (
    <>
      <h2>Tasks</h2>
      {tasks.items.length === 0 ? <Empty what="tasks" /> : null}
      <ul>
        {tasks.items.map((t) => (
          <li>
            <a href={`/tasks/${t.id}`}>{text(t.title)}</a>{' '}
            <span class="muted">{text(t.due_date)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function contactPage(deps: PageDeps) {
  return recordPage(deps, '/contacts/:id', 'contacts', 'contact', (c, found) => {
    const out = presentContact(found.ctx, found.rec);
    const title = out.full_name ?? out.company ?? out.email ?? 'Unnamed contact';
    const restored = c.req.query('restored') !== undefined;
    return c.html(
      <Page title={title}>
        <Heading {...found} title={title} restored={restored} tokens={deps.tokens} />
        <div class="card">
          <Details out={out} />
        </div>
        <Jobs {...found} />
        <Tasks {...found} />
      </Page>,
    );
  });
}
