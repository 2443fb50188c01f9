import type { Payload } from 'payload'
import { getRegistry } from '../../../core/registry.js'
import { columnNameOf, relsColumnOf, relsTableOf, requireTableName } from '../../../core/utils/schema.js'
import { publishableOf } from '../../publishable/index.js'
import { sql, type SqlChunk } from './sql.js'

/** SQL expressions naming a record: its collection slug and id (e.g. columns of a row of a recursive walk). */
export interface RecordSql {
  kind: SqlChunk
  id: SqlChunk
}

/** The `kind` and `id` columns (or others) of a row alias. */
export function refOf(alias: string, kind = 'kind', id = 'id'): RecordSql {
  const a = sql.identifier(alias)
  return { kind: sql`${a}.${sql.identifier(kind)}`, id: sql`${a}.${sql.identifier(id)}` }
}

/**
 * Table and column names of the stored structure, read from the database
 * adapter (table prefix, rels tables, polymorphic columns), so that the raw
 * SQL of the route plugin follows whatever the config declares.
 */
export class StructureSchema {
  constructor(readonly payload: Payload) {}

  get registry() {
    return getRegistry(this.payload.config)
  }

  /** Slugs of the page data collections. */
  get pageDataSlugs(): string[] {
    return this.registry.ofKind('pageData').map((r) => r.slug)
  }

  /** Slugs of the component collections. */
  get componentSlugs(): string[] {
    return this.registry.ofKind('component').map((r) => r.slug)
  }

  tableName(slug: string): string {
    return requireTableName(this.payload, slug)
  }

  table(slug: string): SqlChunk {
    return sql.identifier(this.tableName(slug))
  }

  /** Column of a field in the collection's own table, or null when the field is not stored there. */
  columnName(slug: string, field: string): string | null {
    return columnNameOf(this.payload, slug, field)
  }

  column(slug: string, field: string): SqlChunk {
    const name = this.columnName(slug, field)
    if (!name) throw new Error(`No column for ${slug}.${field}`)
    return sql.identifier(name)
  }

  /** The rels table of a collection (hasMany and polymorphic relationships), or null. */
  relsName(slug: string): string | null {
    return relsTableOf(this.payload, slug)
  }

  rels(slug: string): SqlChunk {
    const name = this.relsName(slug)
    if (!name) throw new Error(`No rels table for ${slug}`)
    return sql.identifier(name)
  }

  /** Column of the rels table of `slug` that holds ids of `target`, or null. */
  relsColumnName(slug: string, target: string): string | null {
    return relsColumnOf(this.payload, slug, target)?.column ?? null
  }

  relsColumn(slug: string, target: string): SqlChunk {
    const name = this.relsColumnName(slug, target)
    if (!name) throw new Error(`No rels column of ${slug} for ${target}`)
    return sql.identifier(name)
  }

  /**
   * A polymorphic relationship stored in the rels table (alias `alias`):
   * the kind (target slug) and id expressions, over `targets`.
   */
  polymorphic(slug: string, targets: string[], alias: string): { kind: SqlChunk; id: SqlChunk } | null {
    const present = targets.filter((t) => this.relsColumnName(slug, t))
    if (present.length === 0) return null
    const a = sql.identifier(alias)
    return polymorphicSql(present.map((t) => [t, sql`${a}.${this.relsColumn(slug, t)}`]))
  }

  /** Slugs of the records of the parent graph: pages and every page data type. */
  get recordSlugs(): string[] {
    return ['pages', ...this.pageDataSlugs]
  }

  private twinDraft(slug: string): SqlChunk {
    const names = slug === 'pages' ? null : publishableOf(this.registry.bySlug(slug)!)
    return names ? sql`(t.${this.column(slug, names.publishedResource)} IS NOT NULL)` : sql`false`
  }

  /**
   * The record `ref` names, as a LATERAL subquery: (kind, id, parent_kind, parent_id, twin_draft,
   * ...extra). One branch per collection, each an index lookup that only
   * runs for rows of its kind, so a recursive walk costs one lookup per step
   * instead of a scan of every record. `extra` adds columns (alias `t`).
   */
  recordByRefSql(ref: RecordSql, extra?: (slug: string) => SqlChunk): SqlChunk {
    const branches = this.recordSlugs.map((slug) => {
      const parentPage = this.columnName(slug, 'parentPage')
      const parentData = this.relsName(slug) ? this.polymorphic(slug, this.pageDataSlugs, 'pr') : null
      const pp = parentPage ? sql`t.${sql.identifier(parentPage)}` : sql`NULL::uuid`
      const kind = parentData
        ? sql`CASE WHEN ${pp} IS NOT NULL THEN 'pages'::text ELSE ${parentData.kind} END`
        : sql`CASE WHEN ${pp} IS NOT NULL THEN 'pages'::text END`
      const id = parentData ? sql`COALESCE(${pp}, ${parentData.id})` : pp
      const join = parentData
        ? sql` LEFT JOIN ${this.rels(slug)} pr ON pr.parent_id = t.id AND pr.path = 'parentPageData'`
        : sql``
      const more = extra ? sql`, ${extra(slug)}` : sql``
      return sql`SELECT ${slug}::text AS kind, t.id, ${kind} AS parent_kind, ${id} AS parent_id, ${this.twinDraft(slug)} AS twin_draft${more}
        FROM ${this.table(slug)} t${join} WHERE ${ref.kind} = ${slug}::text AND t.id = ${ref.id}`
    })
    return sql`LATERAL (${sql.join(branches, sql` UNION ALL `)})`
  }

  /**
   * The records whose parent (parentPage / parentPageData) is `ref`, as a
   * LATERAL subquery: (kind, id,
   * twin_draft). One indexed branch per (child collection, parent kind).
   */
  childrenOfRefSql(ref: RecordSql): SqlChunk {
    const branches: SqlChunk[] = []
    for (const slug of this.recordSlugs) {
      const parentPage = this.columnName(slug, 'parentPage')
      if (parentPage) {
        branches.push(sql`SELECT ${slug}::text AS kind, t.id, ${this.twinDraft(slug)} AS twin_draft FROM ${this.table(slug)} t
          WHERE ${ref.kind} = 'pages' AND t.${sql.identifier(parentPage)} = ${ref.id}`)
      }
      for (const parentSlug of this.pageDataSlugs) {
        const column = this.relsColumnName(slug, parentSlug)
        if (!column) continue
        branches.push(sql`SELECT ${slug}::text, t.id, ${this.twinDraft(slug)} FROM ${this.rels(slug)} pr JOIN ${this.table(slug)} t ON t.id = pr.parent_id
          WHERE ${ref.kind} = ${parentSlug}::text AND pr.path = 'parentPageData' AND pr.${sql.identifier(column)} = ${ref.id}`)
      }
    }
    return sql`LATERAL (${sql.join(branches, sql` UNION ALL `)})`
  }

  /**
   * The route pointing at the record `ref`, as a LATERAL subquery: (id,
   * path), at most one row.
   */
  routeOfRefSql(ref: RecordSql): SqlChunk {
    const routes = this.table('routes')
    const branches: SqlChunk[] = [
      sql`SELECT x.id, x.path FROM ${routes} x WHERE ${ref.kind} = 'pages' AND x.${this.column('routes', 'page')} = ${ref.id}`,
    ]
    for (const slug of this.pageDataSlugs) {
      const column = this.relsColumnName('routes', slug)
      if (!column) continue
      branches.push(sql`SELECT x.id, x.path FROM ${this.rels('routes')} rr JOIN ${routes} x ON x.id = rr.parent_id
        WHERE ${ref.kind} = ${slug}::text AND rr.path = 'pageData' AND rr.${sql.identifier(column)} = ${ref.id}`)
    }
    return sql`LATERAL (${sql.join(branches, sql` UNION ALL `)} LIMIT 1)`
  }

  /** Routes as (id, path, redirect_id, target_kind, target_id), filtered by `where` (alias `r`). */
  routeTargetsSql(where: SqlChunk): SqlChunk {
    const page = this.column('routes', 'page')
    const data = this.relsName('routes') ? this.polymorphic('routes', this.pageDataSlugs, 'rr') : null
    const kind = data
      ? sql`CASE WHEN r.${page} IS NOT NULL THEN 'pages'::text ELSE ${data.kind} END`
      : sql`CASE WHEN r.${page} IS NOT NULL THEN 'pages'::text END`
    const id = data ? sql`COALESCE(r.${page}, ${data.id})` : sql`r.${page}`
    const join = data
      ? sql` LEFT JOIN ${this.rels('routes')} rr ON rr.parent_id = r.id AND rr.path = 'pageData'`
      : sql``
    // The stored effective go-live date (kept current by every write that can change it) decides liveness without another query.
    const effective = this.columnName('routes', 'effectiveLiveAt')
    return sql`SELECT r.id, r.path, r.${this.column('routes', 'redirect')} AS redirect_id, ${kind} AS target_kind, ${id} AS target_id,
      ${effective ? sql`r.${sql.identifier(effective)}` : sql`NULL::timestamptz`} AS effective_live_at
      FROM ${this.table('routes')} r${join} WHERE ${where}`
  }
}

/**
 * The target of a polymorphic relationship from its per-target id columns:
 * the slug of the column that is set (CASE) and its id (COALESCE).
 */
export function polymorphicSql(columns: Array<[slug: string, column: SqlChunk]>): {
  kind: ReturnType<typeof sql>
  id: ReturnType<typeof sql>
} {
  if (columns.length === 0) return { kind: sql`NULL::text`, id: sql`NULL::uuid` }
  return {
    kind: sql`CASE ${sql.join(
      columns.map(([slug, column]) => sql`WHEN ${column} IS NOT NULL THEN ${slug}::text`),
      sql` `,
    )} END`,
    id:
      columns.length === 1
        ? sql`${columns[0]![1]}`
        : sql`COALESCE(${sql.join(
            columns.map(([, column]) => column),
            sql`, `,
          )})`,
  }
}

const cache = new WeakMap<Payload, StructureSchema>()

export function structureSchema(payload: Payload): StructureSchema {
  let schema = cache.get(payload)
  if (!schema) {
    schema = new StructureSchema(payload)
    cache.set(payload, schema)
  }
  return schema
}
