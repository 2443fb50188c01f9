import type { Payload } from 'payload'

/** Fixtures of routes and their targets, written through the Local API (trusted, no user). */
export function routeFixtures(payload: Payload) {
  let counter = 0
  const unique = (name: string) => `${name}-${++counter}-${Math.random().toString(36).slice(2, 8)}`
  const create = async (collection: string, data: Record<string, unknown>) =>
    (await payload.create({ collection: collection as never, data: data as never, depth: 0 })) as unknown as Record<
      string,
      any
    >
  return {
    unique,
    layout: () => create('layouts', { reference: unique('layout') }),
    page: (layout: string, extra: Record<string, unknown> = {}) =>
      create('pages', { reference: unique('page'), title: 'Page', layout, ...extra }),
    article: (page: string, extra: Record<string, unknown> = {}) =>
      create('blog_article_datas', { title: unique('Article'), page, ...extra }),
    route: (path: string, target: Record<string, unknown>, liveAt?: string | null) =>
      create('routes', { path, ...target, ...(liveAt === undefined ? {} : { liveAt }) }),
  }
}

export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()
