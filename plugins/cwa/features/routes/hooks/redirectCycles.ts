import { type CollectionBeforeValidateHook, ValidationError } from 'payload'
import { isUuid } from '../../../core/registry.js'
import { relationId } from '../../../core/utils/relations.js'
import { structureSchema } from '../structure/schema.js'
import { runSql, sql } from '../structure/sql.js'

/**
 * Redirect chains never loop: on every write of `redirect` to an existing
 * route, the chain that starts at the new target must not come back to the
 * route itself (a self-redirect, A -> B -> A, A -> B -> C -> A...). One
 * recursive query in the write's transaction; a new route cannot close a
 * loop (nothing redirects to it yet).
 */
export const redirectCycleHook: CollectionBeforeValidateHook = async ({ data, originalDoc, req }) => {
  const self = originalDoc?.id != null ? String(originalDoc.id) : null
  if (!self || !data || !('redirect' in data)) return data
  const target = relationId(data.redirect)
  // Not an id: left to the relationship's own validation.
  if (!isUuid(target) || !isUuid(self)) return data
  const schema = structureSchema(req.payload)
  const redirect = schema.column('routes', 'redirect')
  const table = schema.table('routes')
  const rows = await runSql<{ loops: boolean }>(
    req.payload,
    sql`WITH RECURSIVE chain(id) AS (
          SELECT ${target}::uuid
          UNION
          SELECT r.${redirect} FROM chain c JOIN ${table} r ON r.id = c.id WHERE r.${redirect} IS NOT NULL
        )
        SELECT EXISTS (SELECT 1 FROM chain WHERE id = ${self}::uuid) AS loops`,
    req,
  )
  if (rows[0]?.loops) {
    throw new ValidationError({
      errors: [
        { path: 'redirect', message: 'This redirect would make a loop: the redirect chain leads back to this route.' },
      ],
    })
  }
  return data
}
