import type { Config } from 'payload'

/**
 * The tables the core creates with SQL of its own: the collections' row counts (utils/rowCounts.ts) and the
 * request throttle (utils/throttle.ts). The features name theirs (`ownTables` of their declarations).
 */
export const coreOwnTables = (tablePrefix: string): string[] => [`${tablePrefix}row_counts`, `${tablePrefix}throttle`]

/**
 * Payload's development push (the Postgres adapter's `push`, on unless set to false, outside production) diffs the
 * database against the config with drizzle-kit: a table it does not know is one to drop, and a drop of a table
 * holding rows makes it ask "Accept warnings and push schema to database?" on the server's terminal, where every
 * request then waits (and `y` drops the plugin's tables). The adapter passes its `tablesFilter` to drizzle-kit's
 * introspection; the plugin's own tables join it as negated patterns, so the push never sees them. The app's own
 * `tablesFilter` is kept; an adapter without one (not Postgres) is left as it is.
 */
export function withOwnTablesOutOfPush(db: Config['db'], tables: readonly string[]): Config['db'] {
  if (!db || tables.length === 0) return db
  return {
    ...db,
    init: (args) => {
      const adapter = db.init(args) as ReturnType<typeof db.init> & { tablesFilter?: string[] }
      if (adapter.name === 'postgres')
        adapter.tablesFilter = [...(adapter.tablesFilter ?? []), ...tables.map((table) => `!${table}`)]
      return adapter
    },
  }
}
