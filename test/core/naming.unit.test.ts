/**
 * Issue 37, collection paths: the default segment is the English plural of the short name in snake_case (`Hero` was
 * served at /component/heros), a type may name its own (`segment`), and the reference site's paths stay as the
 * contract has them (BlogArticleData -> blog_article_datas). No database: the declarations alone.
 */
import { describe, expect, it } from '@jest/globals'
import { collectionSegment, defineComponent, definePageData } from 'payload-cwa'
import { FileDownload, HtmlContent, Image, NavigationLink, Title } from '../../collections/components'
import { BlogArticleData, NewsArticleData } from '../../collections/pageData'

describe('collection path segments', () => {
  it('default to the English plural of the snake_case short name', () => {
    const cases: Record<string, string> = {
      Hero: 'heroes',
      Category: 'categories',
      Gallery: 'galleries',
      Key: 'keys',
      Box: 'boxes',
      Address: 'addresses',
      Quiz: 'quizzes',
      Photo: 'photos',
      Leaf: 'leaves',
      Roof: 'roofs',
      TeamPerson: 'team_people',
      ChildItem: 'child_items',
      NewsSeries: 'news_series',
      News: 'news',
      BlogArticleData: 'blog_article_datas',
      HtmlContent: 'html_contents',
    }
    expect(Object.fromEntries(Object.keys(cases).map((name) => [name, collectionSegment(name)]))).toEqual(cases)
  })

  it('are what a type names, snake_case only', () => {
    expect(defineComponent({ shortName: 'Hero' }).slug).toBe('heroes')
    const person = definePageData({ shortName: 'Person', segment: 'persons' })
    expect(person.slug).toBe('persons')
    expect(person.custom?.cwa).toMatchObject({ shortName: 'Person', segment: 'persons', pathPrefix: '/page_data' })
    expect(person.custom?.cwa).not.toHaveProperty('segments')
    expect(() => defineComponent({ shortName: 'Hero', segment: 'Big-Heroes' })).toThrow(
      'Hero: its segment "Big-Heroes" must be snake_case',
    )
  })

  it("leave the reference site's paths as they are", () => {
    expect(
      [HtmlContent, Image, NavigationLink, Title, FileDownload, BlogArticleData, NewsArticleData].map((c) => c.slug),
    ).toEqual([
      'html_contents',
      'images',
      'navigation_links',
      'titles',
      'file_downloads',
      'blog_article_datas',
      'news_article_datas',
    ])
  })
})
