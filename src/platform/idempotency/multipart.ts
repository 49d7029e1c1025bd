import { createHash, type Hash } from 'node:crypto';
import type busboy from 'busboy';

// decisions.md, Idempotency: a multipart body (an upload of up to 25 MB) is fingerprinted as it
// streams past, never held: by its bytes, and by what it says, part by part (each field's name and
// value, each file's name, filename, type and the digest of its bytes), so a client that encodes
// its retry afresh, with a boundary of its own, sends the same request.

/** A body on its way to the route, fingerprinted as it goes. */
export interface Fingerprinting {
  body: ReadableStream<Uint8Array>;
  /**
   * The fingerprints, once the body has been read to its end: `content` by what it says (none
   * for a body that is no well-formed form), `raw` by its bytes. Undefined when the body was not
   * read to its end (an upload refused part-way).
   */
  done(): Promise<{ raw: string; content: string | undefined } | undefined>;
}

/** What one part says: a field's text, or a file's name and the digest of its bytes. */
type Part = { text: string } | { text: string; bytes: Hash };

export async function fingerprinting(
  head: string,
  body: ReadableStream<Uint8Array>,
  contentType: string,
): Promise<Fingerprinting> {
  const raw = createHash('sha256').update(head);
  const parts: Part[] = [];
  const { parser, settled } = await formReader(contentType, parts);
  let complete = false;
  const passing = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        raw.update(chunk);
        parser?.write(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        complete = true;
        parser?.end();
      },
    }),
  );
  return {
    body: passing,
    async done() {
      if (!complete) {
        return undefined;
      }
      const formed = await settled;
      const content = createHash('sha256').update(head);
      for (const part of parts) {
        content.update(part.text).update('\u0000');
        if ('bytes' in part) {
          content.update(part.bytes.digest('hex'));
        }
      }
      return { raw: raw.digest('hex'), content: formed ? content.digest('hex') : undefined };
    },
  };
}

/**
 * A parser that adds each part of the form to `parts` as it goes by; `settled` answers whether
 * the form was read whole. No parser when there is no form to read (no boundary): the bytes alone.
 */
async function formReader(
  contentType: string,
  parts: Part[],
): Promise<{ parser: busboy.Busboy | undefined; settled: Promise<boolean> }> {
  const { default: Busboy } = await import('busboy');
  let form: busboy.Busboy;
  try {
    form = Busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
  } catch {
    return { parser: undefined, settled: Promise.resolve(false) };
  }
  const settled = new Promise<boolean>((resolve) => {
    form.on('close', () => resolve(true));
    form.on('error', () => resolve(false));
  });
  form.on('field', (name, value) => {
    parts.push({ text: `field\u0000${name}\u0000${value}` });
  });
  form.on('file', (name, stream, info) => {
    const part = {
      text: `file\u0000${name}\u0000${info.filename ?? ''}\u0000${info.mimeType}`,
      bytes: createHash('sha256'),
    };
    parts.push(part);
    stream.on('data', (chunk: Buffer) => part.bytes.update(chunk));
    stream.on('error', () => undefined); // the form's own error says it
  });
  return { parser: form, settled };
}

/** Reads a body to its end, keeping nothing. */
export async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) {
      return;
    }
  }
}
