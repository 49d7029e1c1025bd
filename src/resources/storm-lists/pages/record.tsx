import type { PageDeps } from '../../../platform/family';
import type { Position, WorkspaceCollections } from '../../../store';
import { Page } from '../../../web/ui/layout';
import { notFoundPage } from '../../../web/ui/not-found';
import { Crumbs } from '../../../web/ui/on-job';
import { Badge, count, Facts, type Tone, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { presentStormList } from '../present';

// Which statuses a badge shows as good news, as waiting on someone, or as trouble.
const TONE: Record<string, Tone> = {
  ready: 'ok',
  building: 'warn',
  partial: 'warn',
  failed: 'bad',
};

const stormListTone = (status: string): Tone => TONE[status];

// GET {app_url}/storm_lists/{id}: a storm list and its properties, a page at a time
// (`?after=<property id>`, newest first as GET /storm_lists/{id}/properties pages them).

export const PROPERTY_PAGE = 50;

export function stormListPage(deps: PageDeps) {
  return recordPage(deps, '/storm_lists/:id', 'storm_lists', 'storm list', (c, { ctx, rec }) => {
    const out = presentStormList(ctx, rec);
    const afterId = c.req.query('after');
    const afterRec = afterId
      ? ctx.ws.get('storm_list_properties', afterId.toLowerCase())
      : undefined;
    if (afterId && afterRec?.storm_list_id !== rec.id) {
      return notFoundPage(c, 'such page of this storm list');
    }
    const after: Position | undefined = afterRec && {
      created_at: afterRec.created_at,
      id: afterRec.id,
    };
    const page = ctx.ws.scan('storm_list_properties', {
      after,
      where: (p) => p.storm_list_id === rec.id,
      limit: PROPERTY_PAGE,
    });
    const last = page.items[page.items.length - 1];
    return c.html(
      <Page title={out.name}>
        <Crumbs ctx={ctx} kind="Storm list" />
        <h1>
          {out.name} <Badge tone={stormListTone(out.status)}>{out.status}</Badge>
        </h1>
        <ListFacts out={out} />
        <h2>Properties</h2>
        <Properties items={page.items} status={out.status} />
        <Pager listId={rec.id} afterId={afterId} hasMore={page.hasMore} last={last} />
      </Page>,
    );
  });
}

type StormList = ReturnType<typeof presentStormList>;
type Property = WorkspaceCollections['storm_list_properties'];

function ListFacts({ out }: { out: StormList }) {
  return (
    <div class="card">
      <Facts
        rows={[
          ['Storm window', `${out.window_from} to ${out.window_to}`],
          ['Storm day', text(out.storm_date)],
          ['Smallest hail', `${out.min_size_in} in`],
          ['Area', `${out.area_kind}, ${out.clipped_area_sq_mi} sq mi hit`],
          [
            'Properties',
            `${count(out.property_count)} of ${count(out.total_available)} available (cap ${count(out.property_cap)})`,
          ],
          [
            'Duplicates left out',
            `${count(out.skipped_duplicates)} (within ${out.dedupe_days} days)`,
          ],
          ['Credits spent', count(out.credits_spent)],
          ['Source', out.source],
          ['Built', when(out.built_at)],
          ['Created', when(out.created_at)],
          ['Id', <code>{out.id}</code>],
        ]}
      />
    </div>
  );
}

function Properties({ items, status }: { items: Property[]; status: StormList['status'] }) {
  return items.length === 0 ? (
    <p class="muted">{status === 'building' ? 'Still building.' : 'No properties.'}</p>
  ) : (
    <table>
      <thead>
        <tr>
          <th>Address</th>
          <th>Owner</th>
          <th>Mail</th>
          <th class="money">Hail</th>
          <th>Hail day</th>
          <th>Use</th>
        </tr>
      </thead>
      <tbody>
        {items.map((p) => (
          <tr>
            <td>
              {p.address}, {p.city}, {p.state} {p.zip}
            </td>
            <td>
              {text(p.owner_name)}
              {p.owner_occupied ? ' (lives there)' : ''}
            </td>
            <td>
              {p.mail_deliverable ? (
                <Badge tone="ok">ok</Badge>
              ) : (
                <Badge tone="warn">{text(p.mail_exclude_reason)}</Badge>
              )}
            </td>
            <td class="money">{p.hail_size_in} in</td>
            <td>{p.hail_event_date}</td>
            <td>{p.property_use}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Back to the first page, and on to the next (`?after=` the last property shown). */
function Pager(props: {
  listId: string;
  afterId: string | undefined;
  hasMore: boolean;
  last: Property | undefined;
}) {
  const { listId, afterId, hasMore, last } = props;
  return (
    <p>
      {afterId ? <a href={`/storm_lists/${listId}`}>First page</a> : null}
      {afterId && hasMore ? ' · ' : null}
      {hasMore && last ? (
        <a href={`/storm_lists/${listId}?after=${last.id}`}>Next {PROPERTY_PAGE}</a>
      ) : null}
    </p>
  );
}
