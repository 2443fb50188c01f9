import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'
import { ROLE_ADMIN, type SecurityExpression } from '../../core/options.js'

/**
 * Options of the publishable behaviour, with every default here: the plugin
 * option `publishable.permission` (declared once: core/defineOptions.ts), and the per-type options
 * (defineComponent / definePageData `publishable: true | {...}`).
 */

export const publishablePluginOptions = defineOptions({
  publishable: group('The publishable behaviour ([drafts and publishing](publishing.md)).', {
    permission: option<SecurityExpression>({
      type: 'SecurityExpression',
      default: ROLE_ADMIN,
      doc: 'Who sees drafts and may set publishedAt: a role name, or a function of the user.',
    }),
  }),
})

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof publishablePluginOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof publishablePluginOptions> {}
}

export interface PublishViolation {
  propertyPath: string
  message: string
}

export interface PublishableOptions {
  /** Renames of the three fields (contract: "The three names can be renamed per type"). */
  fields?: { publishedAt?: string; publishedResource?: string; draftResource?: string }
  /** Validation groups run when publishedAt is being set. Default `<ShortName>:published`. */
  validationGroups?: string[]
  /** Properties that must be non-empty to publish. */
  requiredOnPublish?: string[]
  /** Extra publish checks on the merged document. */
  validate?: (doc: Record<string, unknown>) => PublishViolation[]
}

export interface ResolvedPublishable {
  publishedAt: string
  publishedResource: string
  draftResource: string
  validationGroups: string[]
  requiredOnPublish: string[]
  validate?: (doc: Record<string, unknown>) => PublishViolation[]
}

export function resolvePublishable(value: unknown, shortName: string): ResolvedPublishable | null {
  if (!value) return null
  const options: PublishableOptions = value === true ? {} : (value as PublishableOptions)
  return {
    publishedAt: options.fields?.publishedAt ?? 'publishedAt',
    publishedResource: options.fields?.publishedResource ?? 'publishedResource',
    draftResource: options.fields?.draftResource ?? 'draftResource',
    validationGroups: options.validationGroups ?? [`${shortName}:published`],
    requiredOnPublish: options.requiredOnPublish ?? [],
    validate: options.validate,
  }
}
