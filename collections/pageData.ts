import { definePageData } from 'payload-cwa'

/** Reference site page data types (reference-deployment.md, "Page data types"). */

export const BlogArticleData = definePageData({
  shortName: 'BlogArticleData',
  mercure: true,
  search: ['title'],
  order: ['title', 'createdAt'],
  defaultOrder: { createdAt: 'desc' },
  itemsPerPage: 12,
  collection: {
    labels: { singular: 'Blog article', plural: 'Blog articles' },
    admin: { description: 'Articles shown through the blog article template page.' },
  },
  fields: [
    { name: 'htmlContent', type: 'relationship', relationTo: 'html_contents', label: 'Text' },
    { name: 'image', type: 'relationship', relationTo: 'images' },
  ],
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
