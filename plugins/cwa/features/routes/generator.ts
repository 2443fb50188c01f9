import { violation, ViolationError } from '../../hydra/errors.js'

/** What a route generator gets to build a path from. */
export interface RouteGeneratorInput {
  /** The record's title (Page: title, else its reference; PageData: title). */
  title: string
  /** Path of the parent record's route; null for a record without a parent. */
  parentPath: string | null
  /** The page or page data record (depth 0, as stored). */
  record: Record<string, unknown>
  /** Collection slug of the record (`pages`, `blog_article_datas`...). */
  collection: string
}

/**
 * Builds the path of a generated route (POST /_/routes/generate). Set your
 * own with the plugin option `routeGenerator`. `generatePath` returns the
 * path that creation would produce before any conflict suffix: the service
 * then adds `-1`, `-2`... while that path is taken by another route.
 */
export interface RouteGenerator {
  generatePath(input: RouteGeneratorInput): string | Promise<string>
}

/** `Über uns & Co.` -> `uber-uns-co`: lower case ASCII letters, digits and single dashes. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** Joins a parent route path and a segment without doubling the slash of `/`. */
export function childPath(parentPath: string | null, segment: string): string {
  const base = parentPath === null || parentPath === '/' ? '' : parentPath.replace(/\/+$/, '')
  return `${base}/${segment}`
}

/** The default: the parent's route path plus the slug of the title. */
export const slugRouteGenerator: RouteGenerator = {
  generatePath({ title, parentPath }) {
    const slug = slugify(title)
    if (!slug)
      throw new ViolationError([
        violation('title', 'The title gives an empty path: it needs a letter or a digit.', 'empty_slug'),
      ])
    return childPath(parentPath, slug)
  },
}
