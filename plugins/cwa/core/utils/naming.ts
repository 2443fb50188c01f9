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

/** English words whose plural is not the rules' below (the last word of a snake_case name is pluralized). */
const IRREGULAR: Record<string, string> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  mouse: 'mice',
  goose: 'geese',
  foot: 'feet',
  tooth: 'teeth',
  ox: 'oxen',
  quiz: 'quizzes',
  // -o nouns taking -es (most take -s: photo, video, logo, piano, demo).
  hero: 'heroes',
  potato: 'potatoes',
  tomato: 'tomatoes',
  echo: 'echoes',
  veto: 'vetoes',
  torpedo: 'torpedoes',
  embargo: 'embargoes',
  // -f / -fe nouns taking -ves (most take -s: roof, chief, proof, belief).
  leaf: 'leaves',
  half: 'halves',
  knife: 'knives',
  life: 'lives',
  wife: 'wives',
  shelf: 'shelves',
  wolf: 'wolves',
  calf: 'calves',
  loaf: 'loaves',
  thief: 'thieves',
  // The same in both numbers. Not `data`: the contract's example keeps BlogArticleData -> blog_article_datas.
  series: 'series',
  species: 'species',
  news: 'news',
  sheep: 'sheep',
  deer: 'deer',
  fish: 'fish',
  information: 'information',
  equipment: 'equipment',
}

/** The English plural of a snake_case name's last word: `hero` -> `heroes`, `category` -> `categories`. */
export function pluralize(word: string): string {
  const cut = word.lastIndexOf('_') + 1
  const head = word.slice(0, cut)
  const last = word.slice(cut)
  if (IRREGULAR[last]) return head + IRREGULAR[last]
  if (/[^aeiou]y$/.test(last)) return `${head}${last.slice(0, -1)}ies`
  if (/(s|x|z|ch|sh)$/.test(last)) return `${head}${last}es`
  return `${head}${last}s`
}

/**
 * A type's collection path segment: the one it names (`segment`, snake_case), else the snake_case English plural of
 * its short name (`BlogArticleData` -> `blog_article_datas`, `Hero` -> `heroes`).
 */
export function collectionSegment(shortName: string, segment?: string): string {
  if (segment === undefined) return pluralize(toSnakeCase(shortName))
  if (!/^[a-z][a-z0-9_]*$/.test(segment))
    throw new Error(`${shortName}: its segment "${segment}" must be snake_case (lower-case letters, digits and _)`)
  return segment
}

/** `BlogArticleData` -> `blogArticleData` (entrypoint keys, as API Platform names them) */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1)
}
