import { checkSchemaName } from '../store/pg/schema';

// `--store` and `--store-schema`, as `svc serve` and `svc seed` take them (DESIGN.md, Shared
// servers, stores and tests; decisions.md, The store on PostgreSQL).

export const STORE_FLAGS = {
  store: '--store <url>',
  storeHelp:
    'a PostgreSQL store (postgres://user@host:port/database) instead of the data file (default: SVC_STORE)',
  schema: '--store-schema <name>',
  schemaHelp: "the store's schema in that database, made on first use",
} as const;

/** `--store`, else SVC_STORE (empty: none). */
export const storeOf = (given: string | undefined): string | undefined =>
  given ?? (process.env.SVC_STORE || undefined);

/** Whether `at` names a PostgreSQL store (else, where it is taken, a data file). */
export const isPostgresUrl = (at: string): boolean => /^postgres(ql)?:\/\//.test(at);

/** What is wrong with `--store` and `--store-schema`, if anything: exit 2 before starting. */
export function checkStore(url: string, schema: string): string | undefined {
  if (!isPostgresUrl(url) || !URL.canParse(url)) {
    return `--store takes a PostgreSQL URL (postgres://user@host:port/database), not ${shownUrl(url)}`;
  }
  try {
    checkSchemaName(schema);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** A store's URL as the banner may print it: never its password. */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
  const parsed = new URL(url);
  if (parsed.password !== '') {
    parsed.password = '***';
  }
  return parsed.toString();
}
