import type { EndpointDoc } from '../hydra/endpoint.js'
import type { OpenApiDocument, OpenApiKit, Schema } from '../hydra/docs/openapi/kit.js'
import type { ResolvedCwaOptions } from '../core/options.js'
import type { Resource } from '../core/registry.js'
import { inputJsonSchema } from '../hydra/input.js'
import { credentialsInput } from './inputs.js'

const tags = ['Session']

const setCookie = {
  'Set-Cookie': {
    description: 'The JWT and the refresh token, as HttpOnly cookies',
    schema: { type: 'string' },
  },
}

/** The OpenAPI description of the session endpoints (session/endpoints.ts). */
export const sessionDocs = {
  login: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'login',
      tags,
      summary: 'Signs in: sets the JWT and refresh token cookies.',
      security: [],
      // The request body: the endpoint's input (credentialsInput), generated.
      responses: {
        204: { description: 'Signed in', headers: setCookie },
        ...kit.errorResponses(400, 401, 415),
      },
    },
  }),
  refresh: (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId: 'refreshToken',
      tags,
      summary: 'A new JWT and refresh token from the refresh-token cookie (the used one is spent).',
      description:
        'The refresh token rotates: presented again after a short grace period it revokes every refresh token of its user. ' +
        'A disabled or deleted user gets nothing; an unverified one (denyUnverifiedLogin) is refused and both cookies are cleared.',
      security: [],
      responses: {
        204: { description: 'New cookies set', headers: setCookie },
        401: kit.responseRef('Unauthorized'),
      },
    },
  }),
  logout: (): EndpointDoc => ({
    operation: {
      operationId: 'logout',
      tags,
      summary: 'Signs out: revokes the refresh token and clears the cookies.',
      security: [],
      responses: { 204: { description: 'Signed out', headers: setCookie } },
    },
  }),
  me:
    (users: Resource) =>
    (kit: OpenApiKit): EndpointDoc => ({
      operation: {
        operationId: 'getCurrentUser',
        tags,
        summary: 'Retrieves the signed-in user.',
        security: kit.security(false),
        responses: {
          200: kit.jsonLdResponse('The signed-in user', kit.schemaNames.read(users)),
          401: kit.responseRef('Unauthorized'),
        },
      },
    }),
}

/** Bearer JWT, and the JWT cookie set by login. */
export function sessionSecuritySchemes(options: Pick<ResolvedCwaOptions, 'session'>): Record<string, Schema> {
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The session JWT in an Authorization header',
    },
    cookieAuth: {
      type: 'apiKey',
      in: 'cookie',
      name: options.session.cookieName,
      description: 'The session JWT cookie set by login',
    },
  }
}

/** The credentials schema (the login's input) and the Session tag (placed after the entrypoint's). */
export function amendSessionDocs(document: OpenApiDocument): void {
  document.components.schemas['Session.Credentials'] = inputJsonSchema(credentialsInput)
  document.tags.splice(1, 0, { name: 'Session', description: 'Sign in, sign out, current user' })
}
