import { ApiError } from '../../platform/errors';
import type { ControlApi } from './control';
import { actionText, matchText } from './faults-page';
import { action, type Form, field, type Inspector, idParam } from './forms';

// The faults page's forms: add one (through POST /__admin/faults itself, whose body rules are
// the fault's rules), clear all, delete one.

const backToFaults = () => '/inspector/faults';

/** A number as typed, else the text: the control API's schema says what was wrong with it. */
function numberOf(form: Form, name: string): number | string | undefined {
  const typed = field(form, name);
  return typed === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
}

/** The form as the body of POST /__admin/faults: only what was filled in. */
function faultBody(form: Form): Record<string, unknown> {
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

export const addFault = (ins: Inspector, control: ControlApi) =>
  action(
    ins,
    () => ['fault.add'],
    backToFaults,
    async (c, form) => {
      const body = faultBody(form);
      const made = (await control('POST', '/faults', body, c.get('adminScope'))) as {
        id?: unknown;
      };
      const fault = typeof made.id === 'string' ? ins.rt.faults.get(made.id) : undefined;
      if (!fault) {
        throw new ApiError('server_error', 'the fault was not kept');
      }
      return { text: `Fault ${fault.id} added: ${matchText(fault)}: ${actionText(fault)}.` };
    },
  );

export const clearFaults = (ins: Inspector) =>
  action(
    ins,
    () => ['fault.clear'],
    backToFaults,
    async (c) => {
      const gone = ins.rt.faults.listFor(c.get('adminScope'));
      const n = await ins.rt.faults.delete(...gone.map((f) => f.id));
      return { text: `${n} fault${n === 1 ? '' : 's'} cleared.` };
    },
  );

export const deleteFault = (ins: Inspector) =>
  action(
    ins,
    (c) => ['fault.delete', idParam(c)],
    backToFaults,
    async (c) => {
      const fault = ins.rt.faults.get(idParam(c));
      if (!fault) {
        throw new ApiError('not_found', 'no such fault');
      }
      await ins.rt.faults.delete(fault.id);
      return { text: `Fault ${fault.id} deleted.` };
    },
  );
