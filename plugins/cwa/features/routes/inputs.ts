import { input, type InputOf } from '../../hydra/input.js'

/**
 * The body of POST /_/routes/generate: exactly one of `{page: IRI}` and `{pageData: IRI}` (the other absent or
 * null). Each refusal is the one the handler answered before the schema; what the IRI names (a page, page
 * data) is the handler's to check.
 */

const ONE_TARGET = 'Send exactly one of page and pageData.'

const target = () =>
  input.string({
    format: 'iri-reference',
    refuse: { message: 'Expected an IRI (string).', code: 'type' },
  })

export const generateRouteInput = input.oneOf(
  [
    input.object({ page: target() }, { required: ['page'] }),
    input.object({ pageData: target() }, { required: ['pageData'] }),
  ],
  {
    absentWhenNull: true,
    // Neither sent: the refusal names page; both sent: it names the second, pageData.
    refuse: { message: ONE_TARGET, code: 'one_target', path: 'page' },
    refuseFor: {
      type: { message: 'Send {"page": IRI} or {"pageData": IRI}.', code: 'type', path: '' },
      oneOf: { message: ONE_TARGET, code: 'one_target', path: 'pageData' },
    },
  },
)

export type GenerateRouteBody = InputOf<typeof generateRouteInput>
