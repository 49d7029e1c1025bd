import { expect, test } from 'vitest';
import { ApiError } from '../../src/platform/errors';
import { appContext } from '../../src/platform/service-context';
import { convertPin } from '../../src/resources/pins/convert';
import { DALLAS, fresh, newPin, ok, pinOf } from './setup';

// decisions.md, Pins: a conversion makes the homeowner, the job and the pin's link in one
// transaction: when the job cannot be made, the homeowner made before it is not kept either.
// Through the service, on a workspace whose boards were taken away (no first stage for a job).

test('a conversion that fails part way writes nothing: no contact, no job, the pin as it was', async () => {
  const { h, ws } = await fresh();
  const pin = await newPin(ws, { ...DALLAS, homeowner_name: 'Dana Whitfield' });
  const scope = h.rt.store.workspace(ws.id);
  scope.transaction((tx) => {
    for (const coll of ['stages', 'pipelines'] as const) {
      for (const rec of tx.all(coll)) {
        tx.delete(coll, rec.id);
      }
    }
  });
  const ctx = appContext(h.rt, ws.id, 'http://localhost');
  expect(() => convertPin(ctx, pin.id)).toThrow(ApiError);
  expect((await ok(ws.api.get('/contacts'))).data).toEqual([]);
  expect([...scope.values('jobs')]).toEqual([]);
  expect(await pinOf(ws, pin.id)).toEqual(pin);
});
