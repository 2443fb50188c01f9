import type { CollectionConfig } from 'payload'
import { definePageData } from '../core/define.js'
import { type PageDataTypeOptions, withOptions } from './declare.js'

/**
 * A page data example (`ArticleData`, served at /page_data/article_datas): records rendered through a template
 * Page, each with its title and meta description (the page data base fields), a text (`htmlContent`, a rich text
 * of the box's `richText()`) and an `image` (the box's `image()`); newest first, 12 a page. Name it as your site
 * does (`article({ shortName: 'BlogArticleData' })`); its relations point at the box's rich text and image types
 * under their default names.
 */
export function article(options: PageDataTypeOptions = {}): CollectionConfig {
  return definePageData(
    withOptions(
      {
        shortName: 'ArticleData',
        mercure: true,
        search: ['title'],
        order: ['title', 'createdAt'],
        defaultOrder: { createdAt: 'desc' },
        itemsPerPage: 12,
        collection: {
          labels: { singular: 'Article', plural: 'Articles' },
          admin: { description: 'Articles shown through an article template page.' },
        },
        fields: [
          { name: 'htmlContent', type: 'relationship', relationTo: 'html_contents', label: 'Text' },
          { name: 'image', type: 'relationship', relationTo: 'images' },
        ],
      },
      options,
    ),
  )
}
