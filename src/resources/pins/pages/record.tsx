import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../../platform/app-env';
import type { PageDeps } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { Page } from '../../../web/ui/layout';
import { notFoundPage } from '../../../web/ui/not-found';
import { Crumbs, JobLink } from '../../../web/ui/on-job';
import { Facts, pathOf, text, when } from '../../../web/ui/parts';
import { recordOf } from '../../../web/ui/record-of';
import { presentPin } from '../present';
import { type Nearby, nearbyPins, PinMap } from './map';

// GET {app_url}/pins/{id} (a pin's `url`) and GET {app_url}/map?pin={id} (its `map_url`, the
// canvassing map at the pin): both draw it among the workspace's pins near it.

type PinOut = ReturnType<typeof presentPin>;

function Details({ ctx, out }: { ctx: ServiceContext; out: PinOut }) {
  return (
    <Facts
      rows={[
        ['Type', out.pin_type],
        ['Result', text(out.knock_result)],
        [
          'Address',
          text([out.address, out.city, out.state, out.postal_code].filter((p) => p).join(', ')),
        ],
        ['Coordinates', `${out.latitude}, ${out.longitude}`],
        ['Homeowner', text(out.homeowner_name)],
        ['Phone', text(out.phone)],
        ['Email', text(out.email)],
        ['Notes', text(out.notes)],
        ['Job', <JobLink ctx={ctx} jobId={out.job_id} />],
        ['Logged by', out.created_by_name],
        ['Logged', when(out.created_at)],
        ['Updated', when(out.updated_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

function NearbyTable({ nearby }: { nearby: readonly Nearby[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Address</th>
          <th>Result</th>
          <th class="money">Distance</th>
        </tr>
      </thead>
      <tbody>
        {nearby.map(({ pin, miles }) => (
          <tr>
            <td>
              <a href={`/pins/${pin.id}`}>{text(pin.address)}</a>
            </td>
            <td>{pin.knock_result ?? pin.pin_type}</td>
            <td class="money">{Math.round(miles * 5280)} ft</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function render(deps: PageDeps, c: Context<AppEnv>, id: string | undefined, asMap: boolean) {
  const found = recordOf(deps, c, 'pins', id);
  if (!found) {
    return notFoundPage(c, 'pin');
  }
  const { ctx, rec } = found;
  const out = presentPin(ctx, rec);
  const nearby = nearbyPins(ctx, rec);
  const title = out.address ?? `Pin at ${out.latitude}, ${out.longitude}`;
  return c.html(
    <Page title={asMap ? `Map: ${title}` : title} styles={['/_app/records.css']}>
      <Crumbs ctx={ctx} kind={asMap ? 'Canvassing map' : 'Pin'} />
      <h1>{title}</h1>
      <PinMap center={rec} nearby={nearby} />
      <p class="muted">
        {nearby.length} other pins within a mile.{' '}
        {asMap ? <a href={pathOf(out.url)}>The pin</a> : <a href={pathOf(out.map_url)}>The map</a>}
      </p>
      {asMap ? null : (
        <div class="card">
          <Details ctx={ctx} out={out} />
        </div>
      )}
      <h2>Nearby</h2>
      <NearbyTable nearby={nearby} />
    </Page>,
  );
}

export function pinPages(deps: PageDeps) {
  return new Hono<AppEnv>()
    .get('/pins/:id', (c) => render(deps, c, c.req.param('id'), false))
    .get('/map', (c) => render(deps, c, c.req.query('pin'), true));
}
