import { open } from 'node:fs/promises';

/** Makes a rename or a new file in `dir` survive a power cut. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
