import type { ServiceContext } from '../../../platform/service-context';
import { milesBetween } from '../../common/geo';
import type { Pin } from '../schema';

// The canvassing map, drawn offline: an SVG of a pin and the workspace's pins around it, placed
// from their coordinates (an equirectangular projection, true enough over a mile), with a scale.
// No tile server: svc runs offline, and the page's policy allows no other origin.

/** Pins within this distance of the centre are drawn, nearest first, up to NEARBY_CAP. */
export const NEARBY_MILES = 1;
export const NEARBY_CAP = 60;

const W = 600;
const H = 400;
const MILES_PER_DEG_LAT = 69.05;

export interface Nearby {
  pin: Pin;
  miles: number;
}

/** The workspace's other pins near `center`, nearest first: one pass over its pins. */
export function nearbyPins(ctx: ServiceContext, center: Pin): Nearby[] {
  const out: Nearby[] = [];
  for (const pin of ctx.ws.values('pins')) {
    if (pin.id !== center.id) {
      const miles = milesBetween(center.latitude, center.longitude, pin.latitude, pin.longitude);
      if (miles <= NEARBY_MILES) {
        out.push({ pin, miles });
      }
    }
  }
  return out.sort((a, b) => a.miles - b.miles).slice(0, NEARBY_CAP);
}

const GOOD = new Set(['interested', 'appointment_scheduled', 'cash_quote', 'follow_up']);
const BAD = new Set(['not_interested', 'dont_knock', 'lost', 'no_damage', 'renter']);

/** A pin's colour: a job, good news, a closed door, or not yet settled. */
export function pinColour(pin: Pin): string {
  if (pin.pin_type === 'job') {
    return '#1f5fbf';
  }
  if (pin.knock_result && GOOD.has(pin.knock_result)) {
    return '#1d7a46';
  }
  if (pin.knock_result && BAD.has(pin.knock_result)) {
    return '#b3261e';
  }
  return '#6b7385';
}

const STEPS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2];

/** The longest round distance that fits in a quarter of the map's width. */
function scaleBar(pxPerMile: number): { miles: number; label: string } {
  const fits = STEPS.filter((m) => m * pxPerMile <= W / 4);
  const miles = fits[fits.length - 1] ?? STEPS[0] ?? 0.005;
  const label = miles < 0.1 ? `${Math.round(miles * 5280)} ft` : `${miles} mi`;
  return { miles, label };
}

interface Point {
  x: string;
  y: string;
}

/** Where on the map each pin goes: the centre in the middle, the farthest pin near an edge. */
function project(center: Pin, nearby: readonly Nearby[]) {
  const milesPerDegLon = MILES_PER_DEG_LAT * Math.cos((center.latitude * Math.PI) / 180);
  const offset = (p: Pin) => ({
    dx: (p.longitude - center.longitude) * milesPerDegLon,
    dy: (p.latitude - center.latitude) * MILES_PER_DEG_LAT,
  });
  const reach = Math.max(
    0.02,
    ...nearby.map((n) => {
      const { dx, dy } = offset(n.pin);
      return Math.max(Math.abs(dx) * (H / W), Math.abs(dy));
    }),
  );
  const pxPerMile = H / 2 / (reach * 1.15);
  const at = (p: Pin): Point => {
    const { dx, dy } = offset(p);
    return { x: (W / 2 + dx * pxPerMile).toFixed(1), y: (H / 2 - dy * pxPerMile).toFixed(1) };
  };
  return { pxPerMile, at };
}

/** A pin near the centre: a dot linking to its page, its address and result on hover. */
function NearbyDot({ pin, p }: { pin: Pin; p: Point }) {
  return (
    <a href={`/pins/${pin.id}`}>
      <title>{`${pin.address ?? 'Pin'}: ${pin.knock_result ?? pin.pin_type}`}</title>
      <circle cx={p.x} cy={p.y} r="6" fill={pinColour(pin)} stroke="#fff" stroke-width="1.5" />
    </a>
  );
}

function ScaleBar({ pxPerMile }: { pxPerMile: number }) {
  const bar = scaleBar(pxPerMile);
  const barPx = bar.miles * pxPerMile;
  return (
    <g transform={`translate(20 ${H - 24})`}>
      <line x1="0" y1="0" x2={barPx.toFixed(1)} y2="0" stroke="#101726" stroke-width="2" />
      <line x1="0" y1="-5" x2="0" y2="5" stroke="#101726" stroke-width="2" />
      <line
        x1={barPx.toFixed(1)}
        y1="-5"
        x2={barPx.toFixed(1)}
        y2="5"
        stroke="#101726"
        stroke-width="2"
      />
      <text x="0" y="-9" font-size="12" fill="#101726" class="scale">
        {bar.label}
      </text>
    </g>
  );
}

export function PinMap({ center, nearby }: { center: Pin; nearby: readonly Nearby[] }) {
  const { pxPerMile, at } = project(center, nearby);
  const c = at(center);
  return (
    <svg
      class="map"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Map of ${nearby.length + 1} pins around ${center.address ?? 'the pin'}`}
      xmlns="http://www.w3.org/2000/svg"
    >
      {nearby.map(({ pin }) => (
        <NearbyDot pin={pin} p={at(pin)} />
      ))}
      <circle cx={c.x} cy={c.y} r="11" fill={pinColour(center)} stroke="#101726" stroke-width="3" />
      <text x={Number(c.x) + 14} y={Number(c.y) + 4} font-size="13" fill="#101726">
        {center.address ?? 'this pin'}
      </text>
      <ScaleBar pxPerMile={pxPerMile} />
      <text x={W - 20} y="24" font-size="14" text-anchor="end" fill="#101726">
        N ↑
      </text>
    </svg>
  );
}
