import type { Endpoint } from '../../hydra/endpoint.js'
import { withInput } from '../../hydra/endpoint.js'
import type { OpenApiKit } from '../../hydra/docs/openapi/kit.js'
import { input } from '../../hydra/input.js'
import { exchangePreviewLink, PREVIEW_LINK_SECONDS, type PreviewUser, signPreviewLink } from '../../session/index.js'
import type { PayloadRequest } from 'payload'

/**
 * Preview links: with `previewPath`, Payload's Live Preview opens the front end's preview route
 * (`<frontEndUrl><previewPath>?path=<route path>&token=<one minute>`), which exchanges the token here for a token
 * reading drafts with the editor's rights (session/previewTokens.ts), turns its draft mode on and shows the path.
 */
export async function previewLinkUrl(
  req: PayloadRequest,
  frontEndUrl: string,
  previewPath: string,
  path: string,
): Promise<string | null> {
  const user = req.user as (PreviewUser & { collection?: string }) | null
  if (!user || user.collection !== 'users') return null
  const token = await signPreviewLink(req.payload, user, path)
  const query = new URLSearchParams({ path, token })
  return `${frontEndUrl}${previewPath}?${query}`
}

export const previewExchangeInput = input.object(
  { token: input.string({ minLength: 1, maxLength: 4096 }) },
  {
    name: 'Preview.Link',
    required: ['token'],
    refuse: { badRequest: 'The body must hold the preview link\'s "token".' },
  },
)

const previewDocs = (kit: OpenApiKit) => ({
  operation: {
    operationId: 'exchangePreviewLink',
    tags: ['Preview'],
    summary: "Exchanges a preview link's token for a token that reads drafts with its editor's rights.",
    description:
      `A front end's preview route calls it with the \`token\` of the link the admin panel opened (valid ${PREVIEW_LINK_SECONDS} s). ` +
      "The answer's `token` goes in `Authorization: Bearer` on the front end's reads while its draft mode lasts; it only reads (a write with it is a 403).",
    security: [],
    responses: {
      200: {
        description: 'The preview token, the path the link was made for, and when the token expires',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['token', 'path', 'expiresAt'],
              properties: {
                token: { type: 'string' },
                path: { type: 'string' },
                expiresAt: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
      ...kit.errorResponses(400, 401, 415),
    },
  },
})

/** POST /_/preview: public (the link's token is the credential), never stored. */
export function previewEndpoints(): Endpoint[] {
  return [
    withInput({
      method: 'POST',
      path: '/_/preview',
      security: 'public',
      cache: 'no-store',
      input: previewExchangeInput,
      handler: async (ctx, { body }) => ({ status: 200, body: await exchangePreviewLink(ctx.req, body.token) }),
      docs: previewDocs,
    }),
  ]
}
