import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { ApiError, errorCodes } from '../../platform/errors';
import type { Fault } from '../../platform/faults';
import type { ControlApi } from './control';
import { action, type Form, field, type Inspector, idParam } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// decisions.md, Faults: injected into matching /v1 calls, or into svc's deliveries to a target.
// A new fault goes through POST /__admin/faults itself, whose body rules are the fault's rules.

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** A number as typed, else the text: the control API's schema says what was wrong with it. */
function numberOf(form: Form, name: string): number | string | undefined {
  const typed = field(form, name);
  return typed === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
}

/** The form as the body of POST /__admin/faults: only what was filled in. */
export function faultBody(form: Form): Record<string, unknown> {
  const given = (entries: [string, unknown][]) =>
    Object.fromEntries(entries.filter(([, v]) => v !== undefined));
  return given([
    [
      'match',
      given([
        ['method', field(form, 'method')],
        ['path', field(form, 'path')],
        ['workspace_id', field(form, 'workspace_id')],
        ['key_id', field(form, 'key_id')],
        ['target', field(form, 'target')],
      ]),
    ],
    [
      'action',
      given([
        ['status', numberOf(form, 'status')],
        ['code', field(form, 'code')],
        ['delay_ms', numberOf(form, 'delay_ms')],
        ['drop', form.drop === 'on' ? true : undefined],
      ]),
    ],
    ['times', numberOf(form, 'times')],
    ['probability', numberOf(form, 'probability')],
  ]);
}

function matchText(f: Fault): string {
  const m = f.match;
  if (m.target !== undefined) {
    return `deliveries to ${m.target}`;
  }
  return `${m.method?.toUpperCase() ?? 'any method'} ${m.path ?? '(any path)'}`;
}

function actionText(f: Fault): string {
  const a = f.action;
  const parts: string[] = [];
  if (a.delay_ms) {
    parts.push(`wait ${a.delay_ms} ms`);
  }
  if (a.drop) {
    parts.push('drop the connection');
  }
  if (a.status !== undefined || a.code !== undefined) {
    parts.push(`answer ${[a.status, a.code].filter((x) => x !== undefined).join(' ')}`);
  }
  return parts.join(', then ');
}

export function faultRoutes(ins: Inspector, control: ControlApi) {
  const { rt, tokens } = ins;
  const web = new Hono<AppEnv>();

  web.get('/inspector/faults', (c) => {
    const faults = rt.faults.list();
    const workspaces = [...rt.store.global.values('workspaces')];
    const nameOf = (id: string | undefined) =>
      id === undefined ? 'any' : (rt.store.global.get('workspaces', id.toLowerCase())?.name ?? id);
    return c.html(
      <InspectorPage title="Faults" section="faults" flash={ins.flash.take(c.req.query('flash'))}>
        <h1>Faults</h1>
        <p class="muted">
          Injected into matching API calls (after the key, rate and plan checks, so a faulted call
          changes nothing), or into deliveries to a target. Kept in memory: a restart clears them.
        </p>
        {faults.length === 0 ? (
          <p class="muted">No fault.</p>
        ) : (
          <>
            <table>
              <thead>
                <tr>
                  <th>Id</th>
                  <th>Matches</th>
                  <th>Workspace</th>
                  <th>Does</th>
                  <th>Probability</th>
                  <th>Fired</th>
                  <th>Remaining</th>
                  <th>State</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {faults.map((f) => (
                  <tr>
                    <td class="mono">
                      <a href={`/inspector/requests?fault=${f.id}`}>{f.id}</a>
                      <div class="muted">{when(f.created_at)}</div>
                    </td>
                    <td class="mono">
                      {matchText(f)}
                      {f.match.key_id ? <div>key {f.match.key_id}</div> : null}
                    </td>
                    <td>{nameOf(f.match.workspace_id)}</td>
                    <td>{actionText(f)}</td>
                    <td>{String(f.probability)}</td>
                    <td>{String(f.fired)}</td>
                    <td>{f.remaining === null ? 'no end' : String(f.remaining)}</td>
                    <td>
                      <span class={`badge ${f.state === 'active' ? 'warn' : ''}`}>{f.state}</span>
                    </td>
                    <td>
                      <ActionForm
                        action={`/inspector/faults/${f.id}/delete`}
                        token={tokens.issue(['fault.delete', f.id])}
                        label="Delete"
                        danger
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p>
              <ActionForm
                action="/inspector/faults/clear"
                token={tokens.issue(['fault.clear'])}
                label="Clear all"
                danger
              />
            </p>
          </>
        )}

        <section class="card">
          <h2>Add a fault</h2>
          <ActionForm
            action="/inspector/faults"
            token={tokens.issue(['fault.add'])}
            label="Add"
            inline={false}
          >
            <fieldset>
              <legend>Which calls</legend>
              <label class="inline">
                Method{' '}
                <select name="method">
                  <option value="">any</option>
                  {METHODS.map((m) => (
                    <option value={m}>{m}</option>
                  ))}
                </select>
              </label>{' '}
              <label class="inline">
                Path prefix <input name="path" placeholder="/v1/jobs" />
              </label>{' '}
              <label class="inline">
                Workspace{' '}
                <select name="workspace_id">
                  <option value="">any</option>
                  {workspaces.map((ws) => (
                    <option value={ws.id}>{ws.name}</option>
                  ))}
                </select>
              </label>{' '}
              <label class="inline">
                Key or connection id <input name="key_id" />
              </label>
              <label>
                Or deliveries to (a URL prefix, instead of method, path and key){' '}
                <input name="target" type="url" size={40} placeholder="https://example.com/hooks" />
              </label>
            </fieldset>
            <fieldset>
              <legend>What happens</legend>
              <label class="inline">
                Status <input name="status" inputmode="numeric" size={4} placeholder="503" />
              </label>{' '}
              <label class="inline">
                Code{' '}
                <select name="code">
                  <option value="">the status's own</option>
                  {errorCodes.map((code) => (
                    <option value={code}>{code}</option>
                  ))}
                </select>
              </label>{' '}
              <label class="inline">
                Delay (ms) <input name="delay_ms" inputmode="numeric" size={6} />
              </label>{' '}
              <label class="inline">
                <input type="checkbox" name="drop" /> Drop the connection
              </label>
            </fieldset>
            <label class="inline">
              Times <input name="times" inputmode="numeric" size={4} placeholder="no end" />
            </label>{' '}
            <label class="inline">
              Probability <input name="probability" inputmode="decimal" size={4} placeholder="1" />
            </label>{' '}
          </ActionForm>
        </section>
      </InspectorPage>,
    );
  });

  web.post(
    '/inspector/faults',
    action(
      ins,
      () => ['fault.add'],
      () => '/inspector/faults',
      async (_c, form) => {
        const made = (await control('POST', '/faults', faultBody(form))) as { id?: unknown };
        const fault = typeof made.id === 'string' ? rt.faults.get(made.id) : undefined;
        if (!fault) {
          throw new ApiError('server_error', 'the fault was not kept');
        }
        return { text: `Fault ${fault.id} added: ${matchText(fault)}: ${actionText(fault)}.` };
      },
    ),
  );

  web.post(
    '/inspector/faults/clear',
    action(
      ins,
      () => ['fault.clear'],
      () => '/inspector/faults',
      () => {
        const n = rt.faults.list().length;
        rt.faults.clear();
        return { text: `${n} fault${n === 1 ? '' : 's'} cleared.` };
      },
    ),
  );

  web.post(
    '/inspector/faults/:id/delete',
    action(
      ins,
      (c) => ['fault.delete', idParam(c)],
      () => '/inspector/faults',
      (c) => {
        const fault = rt.faults.get(idParam(c));
        if (!fault) {
          throw new ApiError('not_found', 'no such fault');
        }
        rt.faults.delete(fault.id);
        return { text: `Fault ${fault.id} deleted.` };
      },
    ),
  );

  return web;
}
