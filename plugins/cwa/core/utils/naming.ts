/**
 * Naming rules of the contract: a resource's collection path segment is the
 * snake_case plural of its class short name (BlogArticleData -> blog_article_datas).
 */
export function toSnakeCase(shortName: string): string {
  return shortName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}

export function pluralize(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`
  return `${word}s`
}

/** `BlogArticleData` -> `blog_article_datas` */
export function collectionSegment(shortName: string): string {
  return pluralize(toSnakeCase(shortName))
}

/** `BlogArticleData` -> `blogArticleData` (entrypoint keys, as API Platform names them) */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1)
}
