import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

// Issue 36: the README is short and the rest lives in docs/, so a page moved or a heading renamed
// must not leave a link behind. Every relative link and image of README.md and docs/ is followed
// to its file, and its #anchor to a heading there, as GitHub would render them.

const ROOT = join(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name))
    .sort();
  return [join(ROOT, 'README.md'), ...docs];
}

/** The lines outside fenced code blocks (a fence may be indented, inside a list item). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opening) {
      fence = opening;
    } else if (fence !== null && line.trim().startsWith(fence)) {
      fence = null;
    } else if (fence === null) {
      lines.push(line);
    }
  }
  return lines;
}

/** Every `[text](target)` and `![alt](target)` target, code spans left out. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const link of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      targets.push(link[1] ?? '');
    }
  }
  return targets;
}

/** GitHub's anchors for a page's headings: its slugger, with -1, -2 for repeated ones. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) {
      continue;
    }
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//');
}

/** `file: target (what is wrong)` for each relative link of `file` that leads nowhere. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(readFileSync(file, 'utf8')).filter(isRelative)) {
    const [path = '', anchor] = target.split('#', 2);
    const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}: ${target}`;
    if (!existsSync(to)) {
      broken.push(`${where} (no such file)`);
    } else if (anchor !== undefined) {
      const anchors = statSync(to).isFile() ? headingAnchors(readFileSync(to, 'utf8')) : new Set();
      if (!anchors.has(decodeURIComponent(anchor))) {
        broken.push(`${where} (no such heading in ${relative(ROOT, to)})`);
      }
    }
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  test('README.md and every page under docs/ are checked', () => {
    const files = markdownFiles().map((file) => relative(ROOT, file));
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'cli', 'serve.md'));
    expect(files).toContain(join('docs', 'guides', 'webhooks.md'));
  });

  test('every relative link and image points at a file that exists, and its #anchor at a heading of it', () => {
    expect(markdownFiles().flatMap(brokenLinks)).toEqual([]);
  });

  test('every page under docs/ is linked from README.md', () => {
    const readme = join(ROOT, 'README.md');
    const linked = new Set(
      linkTargets(readFileSync(readme, 'utf8'))
        .filter(isRelative)
        .map((target) => resolve(ROOT, target.split('#')[0] ?? '')),
    );
    const pages = markdownFiles().filter((file) => file !== readme);
    expect(pages.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page))).toEqual(
      [],
    );
  });
});

describe('how links and headings are read', () => {
  test('anchors are GitHub slugs: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
    const page = [
      '# `svc replay deliveries`',
      "## Testing your receiver's dedupe and ordering",
      '## The control API (`/__admin`)',
      '## Docs (`/docs`)',
      '## Example',
      '## Example',
      '## Example',
      '```sh',
      '# a shell comment, not a heading',
      '```',
    ].join('\n');
    expect([...headingAnchors(page)]).toEqual([
      'svc-replay-deliveries',
      'testing-your-receivers-dedupe-and-ordering',
      'the-control-api-__admin',
      'docs-docs',
      'example',
      'example-1',
      'example-2',
    ]);
  });

  test('links in fenced code blocks and code spans are not links', () => {
    const page = [
      'See [the guide](guides/api.md#endpoints) and ![a shot](screenshots/job.png "Job").',
      'Not `[this](nowhere.md)`.',
      '  ```json',
      '  [x](nowhere-either.md)',
      '  ```',
      '[Mail](mailto:support@example.com), [site](https://example.com), [here](#top).',
    ].join('\n');
    expect(linkTargets(page)).toEqual([
      'guides/api.md#endpoints',
      'screenshots/job.png',
      'mailto:support@example.com',
      'https://example.com',
      '#top',
    ]);
    expect(linkTargets(page).filter(isRelative)).toEqual([
      'guides/api.md#endpoints',
      'screenshots/job.png',
      '#top',
    ]);
  });
});
