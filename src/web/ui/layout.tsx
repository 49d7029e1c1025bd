import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';

export interface PageProps {
  title: string;
  /** Which part of the app the page belongs to: its link in the header is marked. */
  area?: 'app' | 'inspector' | 'docs' | 'homeowner';
  /** Extra scripts and stylesheets of the page's area, served under /_app/. */
  scripts?: string[];
  styles?: string[];
  children?: Child;
}

// Every page of the web app: one stylesheet, scripts from /_app only (the Content-Security-Policy
// allows nothing else), and text only ever set through JSX, which escapes it.
export function Page({ title, area = 'app', scripts = [], styles = [], children }: PageProps) {
  const homeowner = area === 'homeowner';
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <title>{homeowner ? title : `${title} · svc`}</title>
          {/* No icon: without this, every browser asks for /favicon.ico and logs its 404. */}
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href="/_app/style.css" />
          {styles.map((href) => (
            <link rel="stylesheet" href={href} />
          ))}
          {scripts.map((src) => (
            <script src={src} defer />
          ))}
        </head>
        <body class={`area-${area}`}>
          {homeowner ? null : (
            <header class="top">
              <a class="brand" href="/">
                svc
              </a>
              <nav>
                <a href="/" aria-current={area === 'app' ? 'page' : undefined}>
                  Workspaces
                </a>
                <a href="/inspector" aria-current={area === 'inspector' ? 'page' : undefined}>
                  Inspector
                </a>
                <a href="/docs" aria-current={area === 'docs' ? 'page' : undefined}>
                  Docs
                </a>
              </nav>
            </header>
          )}
          <main>{children}</main>
        </body>
      </html>
    </>
  );
}
