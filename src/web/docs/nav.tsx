// The three docs pages, linked from each of them; the one shown is marked.
const PAGES = [
  { href: '/docs', label: 'API reference' },
  { href: '/docs/errors', label: 'Errors' },
  { href: '/docs/signatures', label: 'Verifying webhook signatures' },
] as const;

export type DocsPath = (typeof PAGES)[number]['href'];

export function DocsNav({ current }: { current: DocsPath }) {
  return (
    <nav class="docs" aria-label="Docs">
      {PAGES.map((page) => (
        <a href={page.href} aria-current={page.href === current ? 'page' : undefined}>
          {page.label}
        </a>
      ))}
    </nav>
  );
}
