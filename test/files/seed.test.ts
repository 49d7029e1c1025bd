import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, test } from 'vitest';
import { geography, isLocated, milesBetween } from '../../src/resources/common/geo';
import type { Json } from '../support/harness';
import { walkPages } from '../support/pages';
import { app, download, ok } from './setup';

// decisions.md, Files: the demo profile carries photos whose EXIF position lies a few dozen metres
// from their job's address; a seeded photo's bytes are a JPEG made from its record.

describe('seeded photos', () => {
  test('a demo workspace has photos on its jobs, their EXIF saying where and when, near the job', async () => {
    const h = app();
    const ws = await h.workspace({ profile: 'demo', seed: 3 });
    const photos = (await walkPages(ws.api, '/files', { category: 'photo', limit: 200 })).data;
    const jobs = new Map(
      (await walkPages(ws.api, '/jobs', { archived: 'any', limit: 200 })).data.map((j: Json) => [
        j.id,
        j,
      ]),
    );
    expect(photos.length).toBeGreaterThanOrEqual(2 * jobs.size);
    const geo = await geography();
    for (const file of photos.slice(0, 12)) {
      const job = jobs.get(file.job_id);
      expect(job, 'a photo is on a job of the workspace').toBeDefined();
      expect(file).toMatchObject({ mime_type: 'image/jpeg', is_photo: true, category: 'photo' });
      expect(job.created_at <= file.taken_at && file.taken_at <= file.created_at).toBe(true);

      const res = await download(h, file.download_url);
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(file.size_bytes);
      expect((await fileTypeFromBuffer(bytes))?.mime).toBe('image/jpeg');
      const exif = await exifr.parse(bytes, { gps: true, reviveValues: false });
      expect(exif.latitude).toBeCloseTo(file.latitude, 6);
      expect(exif.longitude).toBeCloseTo(file.longitude, 6);
      const [day, time] = String(file.taken_at).split('T');
      expect(exif.DateTimeOriginal).toBe(`${day?.replaceAll('-', ':')} ${time?.slice(0, 8)}`);
      expect(exif.OffsetTimeOriginal).toBe('+00:00');

      const placed = geo.locate({ address: job.address, postal_code: job.postal_code });
      expect(isLocated(placed)).toBe(true);
      if (isLocated(placed)) {
        const metres =
          milesBetween(file.latitude, file.longitude, placed.latitude, placed.longitude) * 1609.344;
        expect(metres).toBeGreaterThanOrEqual(9);
        expect(metres).toBeLessThanOrEqual(61);
      }
    }
  });

  test('the same seed gives the same photos, byte for byte, under fresh ids', async () => {
    const h = app();
    const [a, b] = await Promise.all([
      h.workspace({ profile: 'small', seed: 9 }),
      h.workspace({ profile: 'small', seed: 9 }),
    ]);
    const photosOf = async (ws: typeof a) =>
      (await ok(ws.api.get('/files', { query: { limit: 200 } }))).data;
    const [pa, pb] = [await photosOf(a), await photosOf(b)];
    expect(pa.length).toBeGreaterThan(0); // the showcase jobs have one at least
    const strip = ({ id, job_id, uploaded_by_id, download_url, url, ...rest }: Json) => rest;
    expect(pa.map(strip)).toEqual(pb.map(strip));
    const bytesOf = async (f: Json) =>
      Buffer.from(await (await download(h, f.download_url)).arrayBuffer());
    expect((await bytesOf(pa[0])).equals(await bytesOf(pb[0]))).toBe(true);
  });

  test('an empty workspace has no files', async () => {
    const ws = await app().workspace({ profile: 'empty' });
    expect((await ok(ws.api.get('/files'))).data).toEqual([]);
  });
});
