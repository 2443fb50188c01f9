import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { docsHtml, docsInitScript, swaggerAssetsDir } from '../docs/html.js'
import { hydraDocumentation } from '../docs/hydraDocumentation.js'
import { openApiDocument } from '../docs/openapi/document.js'
import type { Endpoint } from '../endpoint.js'
import { notFound } from '../errors.js'
import { securitySchemes } from '../extensions/formatHooks.js'
import { baseUrlOf } from '../requestUrl.js'

const THE_DOCUMENTATION = 'the documentation itself'

/** Only the files the page uses: not the package's own index.html (Petstore) or source maps. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}
const assetCache = new Map<string, Uint8Array>()

async function asset(name: string): Promise<Uint8Array> {
  let data = assetCache.get(name)
  if (!data) {
    data = new Uint8Array(await readFile(path.join(swaggerAssetsDir(), name)))
    assetCache.set(name, data)
  }
  return data
}

/**
 * GET {prefix}/docs (HTML), /docs.json (OpenAPI 3.1), /docs.jsonld (Hydra
 * ApiDocumentation) and /docs/assets/{file}. `endpoints` gives the whole
 * table, which the OpenAPI document describes.
 */
export function docsEndpoints(endpoints: () => Endpoint[]): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/docs.json',
      handler: async (ctx, { url }) => {
        const info = {
          title: `${ctx.options.websiteName} API`,
          version: '2.0.0-alpha',
          serverUrl: baseUrlOf(url),
          securitySchemes: securitySchemes(ctx.extensions, ctx.options),
        }
        const document = openApiDocument(ctx.registry, info, ctx.extensions, endpoints())
        return {
          status: 200,
          raw: { contentType: 'application/vnd.openapi+json; charset=utf-8', data: JSON.stringify(document) },
        }
      },
      docs: { undocumented: THE_DOCUMENTATION },
    },
    {
      method: 'GET',
      path: '/docs.jsonld',
      handler: async (ctx, { url }) => ({
        status: 200,
        body: hydraDocumentation(ctx.registry, baseUrlOf(url), { extensions: ctx.extensions }),
      }),
      docs: { undocumented: THE_DOCUMENTATION },
    },
    {
      method: 'GET',
      path: '/docs',
      handler: async (ctx) => ({
        status: 200,
        raw: {
          contentType: 'text/html; charset=utf-8',
          data: docsHtml({ apiPrefix: ctx.options.apiPrefix, title: `${ctx.options.websiteName} API` }),
        },
      }),
      docs: { undocumented: THE_DOCUMENTATION },
    },
    {
      method: 'GET',
      path: '/docs/assets/{file}',
      handler: async (ctx, { params }) => {
        if (params.file === 'init.js') {
          return {
            status: 200,
            raw: { contentType: 'application/javascript; charset=utf-8', data: docsInitScript(ctx.options.apiPrefix) },
          }
        }
        const contentType = ASSETS[params.file!]
        if (!contentType) throw notFound()
        // Versioned with the package: a day in browsers and shared caches (the pipeline writes the header).
        return { status: 200, cache: { maxAge: 86400 }, raw: { contentType, data: await asset(params.file!) } }
      },
      docs: { undocumented: THE_DOCUMENTATION },
    },
  ]
}
