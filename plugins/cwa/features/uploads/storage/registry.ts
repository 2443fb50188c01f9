import type { Payload } from 'payload'
import { getOptions } from '../../../core/registry.js'
import type { StorageConfig } from '../options.js'
import type { StorageAdapter } from './adapter.js'
import { localStorage } from './local.js'
import { s3Storage } from './s3.js'

const instances = new WeakMap<object, Map<string, StorageAdapter>>()

function build(alias: string, config: StorageConfig): StorageAdapter {
  if ('put' in config) return config
  if (config.adapter === 'local') return localStorage(config)
  if (config.adapter === 's3') return s3Storage(config)
  throw new Error(
    `cwa uploads: storage "${alias}" names an unknown adapter "${(config as { adapter?: string }).adapter}" (local or s3)`,
  )
}

/** The adapters of a Payload instance by alias (built once per config). */
export function storages(payload: Pick<Payload, 'config'>): Map<string, StorageAdapter> {
  let map = instances.get(payload.config)
  if (!map) {
    map = new Map(
      Object.entries(getOptions(payload.config).uploads.storage).map(([alias, config]) => [
        alias,
        build(alias, config),
      ]),
    )
    instances.set(payload.config, map)
  }
  return map
}

export function storageFor(payload: Pick<Payload, 'config'>, alias: string): StorageAdapter {
  const adapter = storages(payload).get(alias)
  if (!adapter) throw new Error(`cwa uploads: no storage adapter is registered under "${alias}"`)
  return adapter
}
