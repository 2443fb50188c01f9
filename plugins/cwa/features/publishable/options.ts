import type { OptionKeys } from '../../core/optionKeys.js'
import {
  type CwaPluginOptions,
  ROLE_ADMIN,
  type ResolvedCwaOptions,
  type SecurityExpression,
} from '../../core/options.js'

/**
 * Options of the publishable behaviour, with every default here: the plugin
 * option `publishable.permission`, and the per-type options
 * (defineComponent / definePageData `publishable: true | {...}`).
 */

/** The `publishable` plugin option. */
export interface PublishablePluginOptions {
  /** Who sees drafts and may set publishedAt. Default ROLE_ADMIN. */
  permission?: SecurityExpression
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    publishable?: PublishablePluginOptions
  }
  interface ResolvedCwaOptions {
    publishable: { permission: SecurityExpression }
  }
}

export const publishableOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'publishable'>> = {
  publishable: { permission: true },
}

export function resolvePublishablePluginOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'publishable'> {
  return { publishable: { permission: options.publishable?.permission ?? ROLE_ADMIN } }
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
