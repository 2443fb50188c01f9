/**
 * Issue 38, the database-free tier: the default route generator (features/routes/generator.ts), which builds a
 * generated route's path from the record's title and its parent's route before any conflict suffix
 * (POST /_/routes/generate: test/routes/structure/generate.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { childPath, slugify, slugRouteGenerator } from '../../plugins/cwa/dist/features/routes/generator.js'

const generate = (title: string, parentPath: string | null) =>
  slugRouteGenerator.generatePath({ title, parentPath, record: {}, collection: 'pages' })

describe('the default route generator', () => {
  it('slugs a title to lower-case ASCII letters, digits and single dashes, accents dropped', () => {
    expect(slugify('Über uns & Co.')).toBe('uber-uns-co')
    expect(slugify('  Crème Brûlée -- 2 ways!  ')).toBe('creme-brulee-2-ways')
    expect(slugify('ÅNGSTRÖM_units')).toBe('angstrom-units')
    expect(slugify('日本語')).toBe('')
  })

  it("joins the parent's path and the segment without doubling a slash; no parent or the home route is the root", () => {
    expect(childPath(null, 'about')).toBe('/about')
    expect(childPath('/', 'about')).toBe('/about')
    expect(childPath('/blog', 'first')).toBe('/blog/first')
    expect(childPath('/blog//', 'first')).toBe('/blog/first')
  })

  it("builds the parent's path plus the title's slug, and refuses a title that gives an empty path", () => {
    expect(generate('First Post', '/blog')).toBe('/blog/first-post')
    expect(generate('About us', null)).toBe('/about-us')
    expect(() => generate('!!!', '/blog')).toThrow(
      expect.objectContaining({
        violations: [
          expect.objectContaining({
            propertyPath: 'title',
            message: 'The title gives an empty path: it needs a letter or a digit.',
          }),
        ],
      }),
    )
  })
})
