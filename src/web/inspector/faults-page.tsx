import type { Handler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { Workspace } from '../../platform/auth';
import { errorCodes } from '../../platform/errors';
import type { Fault } from '../../platform/faults';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { shownWorkspaces } from '../scope';
import type { Inspector } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// decisions.md, Faults: injected into matching /v1 calls, or into svc's deliveries to a target.
// GET /inspector/faults lists them with the forms of fault-actions.ts: delete one, clear all, add.

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export function matchText(f: Fault): string {
  const m = f.match;
  if (m.target !== undefined) {
    return `deliveries to ${m.target}`;
  }
  return `${m.method?.toUpperCase() ?? 'any method'} ${m.path ?? '(any path)'}`;
}

export function actionText(f: Fault): string {
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

export const faultsPage =
  (ins: Inspector): Handler<AppEnv> =>
  (c) => {
    const { rt, tokens } = ins;
    const scope = c.get('adminScope');
    const faults = rt.faults.listFor(scope);
    const workspaces = shownWorkspaces(rt, scope);
    return c.html(
      <InspectorPage
        scope={c.get('adminScope')}
        title="Faults"
        section="faults"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>Faults</h1>
        <p class="muted">
          Injected into matching API calls (after the key, rate and plan checks, so a faulted call
          changes nothing), or into deliveries to a target. Kept in memory: a restart clears them.
        </p>
        {faults.length === 0 ? (
          <p class="muted">No fault.</p>
        ) : (
          <>
            <FaultTable faults={faults} rt={rt} tokens={tokens} />
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

        <AddFaultCard workspaces={workspaces} scoped={scope !== undefined} tokens={tokens} />
      </InspectorPage>,
    );
  };

/** The name of the workspace a fault matches, its id as given when svc has no such workspace. */
const workspaceName = (rt: Runtime, id: string | undefined) =>
  id === undefined ? 'any' : (rt.store.global.get('workspaces', id.toLowerCase())?.name ?? id);

function FaultTable(props: { faults: Fault[]; rt: Runtime; tokens: PageTokens }) {
  return (
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
        {props.faults.map((f) => (
          <FaultRow
            fault={f}
            workspace={workspaceName(props.rt, f.match.workspace_id)}
            tokens={props.tokens}
          />
        ))}
      </tbody>
    </table>
  );
}

function FaultRow(props: { fault: Fault; workspace: string; tokens: PageTokens }) {
  const f = props.fault;
  return (
    <tr>
      <td class="mono">
        <a href={`/inspector/requests?fault=${f.id}`}>{f.id}</a>
        <div class="muted">{when(f.created_at)}</div>
      </td>
      <td class="mono">
        {matchText(f)}
        {f.match.key_id ? <div>key {f.match.key_id}</div> : null}
      </td>
      <td>{props.workspace}</td>
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
          token={props.tokens.issue(['fault.delete', f.id])}
          label="Delete"
          danger
        />
      </td>
    </tr>
  );
}

function AddFaultCard(props: { workspaces: Workspace[]; scoped: boolean; tokens: PageTokens }) {
  const { workspaces, scoped, tokens } = props;
  return (
    <section class="card">
      <h2>Add a fault</h2>
      <ActionForm
        action="/inspector/faults"
        token={tokens.issue(['fault.add'])}
        label="Add"
        inline={false}
      >
        <WhichCalls workspaces={workspaces} scoped={scoped} />
        <WhatHappens />
        <label class="inline">
          Times <input name="times" inputmode="numeric" size={4} placeholder="no end" />
        </label>{' '}
        <label class="inline">
          Probability <input name="probability" inputmode="decimal" size={4} placeholder="1" />
        </label>{' '}
      </ActionForm>
    </section>
  );
}

/** `scoped`: a control-token sign-in, whose faults match its own workspace alone. */
function WhichCalls({ workspaces, scoped }: { workspaces: Workspace[]; scoped: boolean }) {
  return (
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
          {scoped ? null : <option value="">any</option>}
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
  );
}

function WhatHappens() {
  return (
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
  );
}
