import { open, readFile } from 'node:fs/promises';
import { fieldOf } from '../platform/openapi/validation';
import { BUNDLE, type Bundle, BundleSchema } from './format';

/** A file svc can read as a bundle is not one it can open as a data file, and the other way. */
export class BundleFileError extends Error {}

/** Whether `path` holds a bundle: svc writes `format` first, so the first bytes say. */
export async function isBundleFile(path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    return new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${BUNDLE}"`).test(
      buffer.toString('utf8', 0, bytesRead),
    );
  } catch {
    return false; // not there, or not readable: the data file's own reader says what is wrong
  } finally {
    await handle?.close();
  }
}

export async function readBundle(path: string): Promise<Bundle> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new BundleFileError(`cannot read bundle ${path}: ${(err as Error).message}`);
  }
  const parsed = BundleSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = (issue && fieldOf(issue.path)) ?? 'the file';
    throw new BundleFileError(`${path} is not a svc bundle: ${at}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
