import type { Payload } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import type { Endpoint } from '../endpoint.js'
import { docsEndpoints } from '../endpoints/docs.js'
import { entrypointEndpoints } from '../endpoints/entrypoint.js'
import { resourceEndpoints } from '../endpoints/resources.js'
import type { HydraExtension } from '../extension.js'
import { allExtensions } from '../extensions/index.js'
import { extensionEndpoints } from '../extensions/requestHooks.js'
import { getOptions, getRegistry, type ResourceRegistry } from '../../core/registry.js'
import { EndpointTable } from './table.js'

/**
 * Every endpoint of the API: the core's (entrypoint, contexts, docs, the
 * resources' operations) and each extension's, less the generic ones an
 * extension supersedes.
 */
export function apiEndpoints(
  registry: ResourceRegistry,
  extensions: HydraExtension[],
  options?: ResolvedCwaOptions,
): Endpoint[] {
  let all: Endpoint[] = []
  const declared = [
    ...entrypointEndpoints,
    ...docsEndpoints(() => all),
    ...resourceEndpoints(registry, extensions),
    ...extensionEndpoints(extensions, registry, options),
  ]
  const key = (method: string, path: string) => `${method} ${path}`
  const superseded = new Set(declared.filter((e) => e.supersedes).map((e) => key(e.method, e.supersedes!)))
  for (const wanted of superseded) {
    if (!declared.some((e) => key(e.method, e.path) === wanted))
      throw new Error(`An endpoint supersedes ${wanted}, which does not exist.`)
  }
  all = declared.filter((e) => !superseded.has(key(e.method, e.path)))
  return all
}

/**
 * What the pipeline needs of one Payload instance, built once: every
 * request's context carries its registry, options and extensions
 * (pipeline/context.ts), so no stage looks them up on the config again.
 */
export interface ApiRuntime {
  payload: Payload
  registry: ResourceRegistry
  options: ResolvedCwaOptions
  /** The format layer's own extensions, then the features' and the app's (allExtensions): the one list every stage calls. */
  extensions: HydraExtension[]
  table: EndpointTable
}

const runtimes = new WeakMap<Payload, ApiRuntime>()

export function apiRuntime(payload: Payload): ApiRuntime {
  let runtime = runtimes.get(payload)
  if (!runtime) {
    const registry = getRegistry(payload.config)
    const extensions = allExtensions(payload.config)
    const options = getOptions(payload.config)
    runtime = {
      payload,
      registry,
      options,
      extensions,
      table: new EndpointTable(apiEndpoints(registry, extensions, options)),
    }
    runtimes.set(payload, runtime)
  }
  return runtime
}
