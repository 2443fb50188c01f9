import { ValidationError } from 'payload'
import type { HydraContext } from '../../hydra/context.js'
import { violation, type Violation, ViolationError } from '../../hydra/errors.js'
import type { Resource } from '../../core/registry.js'
import { visibleIds } from '../../hydra/visibleIds.js'

/**
 * A component POST may name where the new component goes
 * (`componentPositions`, read-only on every other write): each entry is the
 * IRI of an existing position (it then holds the new component) or an
 * embedded `{componentGroup, sortValue}` (a new position in that group).
 * They are written in the transaction of the create, so a refused position
 * leaves no orphaned component behind.
 */
export type PositionPlan = Array<
  | { kind: 'link'; id: string; index: number }
  | { kind: 'create'; group: string; sortValue: number | null; index: number }
>

const POSITIONS = 'component_positions'
const GROUPS = 'component_groups'

/** The positions a component POST names, checked (422 listing every bad entry); null when the body names none. */
export async function readPositionsOnCreate(
  resource: Resource,
  body: unknown,
  ctx: HydraContext,
): Promise<PositionPlan | null> {
  if (resource.meta.kind !== 'component' || !body || typeof body !== 'object') return null
  const value = (body as Record<string, unknown>).componentPositions
  if (value === undefined || value === null) return null
  if (!Array.isArray(value))
    throw new ViolationError([
      violation(
        'componentPositions',
        'This value should be a list of position IRIs or {componentGroup, sortValue} objects.',
        'type',
      ),
    ])
  if (value.length > 100)
    throw new ViolationError([violation('componentPositions', 'At most 100 positions at once.', 'too_many')])
  const plan: PositionPlan = []
  const violations: Violation[] = []
  for (const [index, entry] of value.entries()) {
    const path = `componentPositions[${index}]`
    const iri =
      typeof entry === 'string'
        ? entry
        : entry && typeof entry === 'object' && typeof (entry as { '@id'?: unknown })['@id'] === 'string'
          ? (entry as { '@id': string })['@id']
          : null
    if (iri !== null) {
      const parsed = ctx.registry.parseIri(iri)
      if (parsed?.resource.slug !== POSITIONS || !parsed.id)
        violations.push(violation(path, `"${iri}" is not a component position IRI.`, 'invalid_iri'))
      else plan.push({ kind: 'link', id: parsed.id, index })
      continue
    }
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      violations.push(
        violation(path, 'This value should be a position IRI or a {componentGroup, sortValue} object.', 'type'),
      )
      continue
    }
    const { componentGroup, sortValue } = entry as { componentGroup?: unknown; sortValue?: unknown }
    const group = ctx.registry.parseIri(componentGroup)
    if (group?.resource.slug !== GROUPS || !group.id) {
      violations.push(violation(`${path}.componentGroup`, 'This value should be a component group IRI.', 'invalid_iri'))
      continue
    }
    if (sortValue !== undefined && sortValue !== null && !Number.isInteger(sortValue)) {
      violations.push(violation(`${path}.sortValue`, 'This value should be of type int.', 'type'))
      continue
    }
    plan.push({ kind: 'create', group: group.id, sortValue: (sortValue as number | null | undefined) ?? null, index })
  }
  if (violations.length === 0) violations.push(...(await missing(plan, ctx)))
  if (violations.length > 0) throw new ViolationError(violations)
  return plan
}

/** Entries naming nothing the caller can see: one query per kind. */
async function missing(plan: PositionPlan, ctx: HydraContext): Promise<Violation[]> {
  const out: Violation[] = []
  const check = async (slug: string, entries: Array<{ id: string; index: number; path: string }>) => {
    if (entries.length === 0) return
    const existing = await visibleIds(
      slug,
      entries.map((e) => e.id),
      ctx,
    )
    for (const entry of entries)
      if (!existing.has(entry.id)) out.push(violation(entry.path, 'Item not found.', 'not_found'))
  }
  await check(
    POSITIONS,
    plan.flatMap((p) =>
      p.kind === 'link' ? [{ id: p.id, index: p.index, path: `componentPositions[${p.index}]` }] : [],
    ),
  )
  await check(
    GROUPS,
    plan.flatMap((p) =>
      p.kind === 'create'
        ? [{ id: p.group, index: p.index, path: `componentPositions[${p.index}].componentGroup` }]
        : [],
    ),
  )
  return out
}

/** Writes the plan for the new component, in the caller's transaction, with the caller's access; a refusal names its entry. */
export async function applyPositionsOnCreate(
  resource: Resource,
  componentId: string,
  plan: PositionPlan,
  ctx: HydraContext,
): Promise<void> {
  const component = { relationTo: resource.slug, value: componentId }
  for (const step of plan) {
    try {
      if (step.kind === 'link') {
        await ctx.payload.update({
          collection: POSITIONS,
          id: step.id,
          data: { component },
          depth: 0,
          overrideAccess: false,
          req: ctx.req,
        })
      } else {
        const data: Record<string, unknown> = { componentGroup: step.group, component }
        if (step.sortValue !== null) data.sortValue = step.sortValue
        await ctx.payload.create({
          collection: POSITIONS,
          data,
          depth: 0,
          overrideAccess: false,
          req: ctx.req,
        })
      }
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      const errors = (error.data as { errors?: Array<{ path?: string; message?: string }> })?.errors ?? []
      throw new ViolationError(
        errors.map((e) =>
          violation(
            `componentPositions[${step.index}]${e.path ? `.${e.path}` : ''}`,
            e.message ?? 'Invalid value.',
            'invalid_position',
          ),
        ),
      )
    }
  }
}
