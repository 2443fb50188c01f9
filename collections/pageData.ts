import { definePageData } from 'payload-cwa'
import { article } from 'payload-cwa/content'

/** Reference site page data types (reference-deployment.md, "Page data types"). */

export const BlogArticleData = article({
  shortName: 'BlogArticleData',
  collection: {
    labels: { singular: 'Blog article', plural: 'Blog articles' },
    admin: { description: 'Articles shown through the blog article template page.' },
  },
})

export const NewsArticleData = definePageData({
  shortName: 'NewsArticleData',
  publishable: { requiredOnPublish: ['summary'] }, // group NewsArticleData:published
  search: ['title', 'summary'],
  order: ['title', 'createdAt'],
  collection: { labels: { singular: 'News article', plural: 'News articles' } },
  fields: [
    { name: 'summary', type: 'textarea' },
    { name: 'image', type: 'relationship', relationTo: 'images' },
  ],
})

export const sitePageData = [BlogArticleData, NewsArticleData]
