import type { Child } from 'hono/jsx';
import { Page } from '../ui/layout';
import type { Flash } from './flash';

export const SCRIPT = '/_app/inspector.js';
export const STYLESHEET = '/_app/inspector.css';

const SECTIONS = [
  ['workspaces', '/inspector', 'Workspaces'],
  ['requests', '/inspector/requests', 'Requests'],
  ['webhooks', '/inspector/webhooks', 'Webhooks'],
  ['clock', '/inspector/clock', 'Clock'],
  ['faults', '/inspector/faults', 'Faults'],
] as const;

export type Section = (typeof SECTIONS)[number][0];

/**
 * Every inspector page: the layout, the inspector's own tabs, and what the last form did. `scope`:
 * a control-token sign-in's workspace, which has no server clock to show.
 */
export function InspectorPage(props: {
  title: string;
  section: Section;
  scope: string | undefined;
  flash?: Flash | undefined;
  children?: Child;
}) {
  const tabs = props.scope === undefined ? SECTIONS : SECTIONS.filter(([n]) => n !== 'clock');
  return (
    <Page title={props.title} area="inspector" scripts={[SCRIPT]} styles={[STYLESHEET]}>
      <nav class="tabs" aria-label="Inspector">
        {tabs.map(([name, href, label]) => (
          <a href={href} aria-current={name === props.section ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {props.flash ? <FlashNotice flash={props.flash} /> : null}
      {props.children}
    </Page>
  );
}

function FlashNotice({ flash }: { flash: Flash }) {
  return (
    <div class={`notice ${flash.kind}`} role={flash.kind === 'bad' ? 'alert' : 'status'}>
      <p>{flash.text}</p>
      {flash.shown && flash.shown.length > 0 ? (
        <>
          <p>Copy it now: svc shows it only this once.</p>
          <dl class="facts">
            {flash.shown.map((s, i) => (
              <>
                <dt>{s.label}</dt>
                <dd>
                  <Copyable id={`shown-${i}`} text={s.value} />
                </dd>
              </>
            ))}
          </dl>
        </>
      ) : null}
    </div>
  );
}

/** Text with a copy button; the button stays hidden until the script can make it work. */
export function Copyable({ id, text }: { id: string; text: string }) {
  return (
    <>
      <code id={id} class="secret">
        {text}
      </code>{' '}
      <button type="button" class="copy" data-copy={id} hidden>
        Copy
      </button>
    </>
  );
}

/**
 * A button that posts a form carrying the token its page was given for the action. Inputs go
 * inside; the form posts only to svc (form-action 'self').
 */
export function ActionForm(props: {
  action: string;
  token: string;
  label: string;
  danger?: boolean;
  inline?: boolean;
  children?: Child;
}) {
  return (
    <form method="post" action={props.action} class={props.inline === false ? 'stack' : 'inline'}>
      <input type="hidden" name="token" value={props.token} />
      {props.children}
      <button type="submit" class={props.danger ? 'danger' : 'primary'}>
        {props.label}
      </button>
    </form>
  );
}

/** An instant as svc writes it, shorter: seconds, in UTC, as the clock page says. */
export const when = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : '—';

export function StatusBadge({ status }: { status: number }) {
  const kind = status === 0 || status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
  return <span class={`badge ${kind}`}>{status === 0 ? 'dropped' : String(status)}</span>;
}

/** The page a refused form gets: nothing was changed. */
export function refusedPage(message: string) {
  return (
    <Page title="Request refused" area="inspector">
      <h1>Request refused</h1>
      <p>{message}</p>
      <p>Nothing was changed.</p>
      <p>
        <a href="/inspector">Back to the inspector</a>
      </p>
    </Page>
  );
}
