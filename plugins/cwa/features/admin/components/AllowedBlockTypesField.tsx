'use client'
/**
 * A component group's "Allowed block types" as an editor reads it: every type, or only the types ticked in a list
 * of their names (the API's JSON field holds their collection IRIs, null for every type). Replaces Payload's JSON
 * editor, which loads its code from a CDN (the admin panel asks nothing of the internet). The types are the
 * component collections the API's entrypoint lists, named as the admin names them; an IRI the site no longer has
 * stays ticked under its IRI, so saving never drops it unseen.
 */
import { useConfig, useField } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'
import { apiFetch } from '../../../core/admin/api.js'

interface BlockType {
  iri: string
  label: string
}

const nameOf = (labels: unknown, fallback: string): string => {
  if (typeof labels === 'string') return labels
  if (labels && typeof labels === 'object') {
    const first = Object.values(labels as Record<string, unknown>).find((value) => typeof value === 'string')
    if (typeof first === 'string') return first
  }
  return fallback
}

export function AllowedBlockTypesField({ path, apiPrefix }: { path: string; apiPrefix: string }) {
  const { value, setValue } = useField<string[] | null>({ path })
  const { config } = useConfig()
  const [types, setTypes] = useState<BlockType[] | null>(null)
  useEffect(() => {
    let live = true
    apiFetch<Record<string, unknown>>(`${apiPrefix}/`)
      .then((entrypoint) => {
        const found = Object.values(entrypoint)
          .filter((iri): iri is string => typeof iri === 'string' && iri.startsWith(`${apiPrefix}/component/`))
          .map((iri) => {
            const slug = iri.split('/').pop()!
            const collection = config.collections.find((candidate) => candidate.slug === slug)
            return { iri, label: nameOf(collection?.labels?.singular, slug) }
          })
          .sort((a, b) => a.label.localeCompare(b.label))
        if (live) setTypes(found)
      })
      .catch(() => live && setTypes([]))
    return () => {
      live = false
    }
  }, [apiPrefix, config.collections])
  const chosen = Array.isArray(value) ? value : null
  // "Only these" with none ticked yet is still every type (an empty list is no restriction): the list opens empty.
  const [only, setOnly] = useState(chosen !== null && chosen.length > 0)
  const every = !only
  const known = new Set((types ?? []).map((type) => type.iri))
  const listed = [
    ...(types ?? []),
    ...(chosen ?? []).filter((iri) => !known.has(iri)).map((iri) => ({ iri, label: iri })),
  ]
  const toggle = (iri: string) =>
    setValue(chosen?.includes(iri) ? chosen.filter((one) => one !== iri) : [...(chosen ?? []), iri])
  return (
    <fieldset className="field-type cwa-allowed-types" style={{ border: 0, padding: 0, margin: '0 0 var(--base)' }}>
      <legend className="field-label">Allowed block types</legend>
      <label style={{ display: 'block' }}>
        <input
          type="radio"
          name={`${path}-mode`}
          checked={every}
          onChange={() => {
            setOnly(false)
            setValue(null)
          }}
        />{' '}
        Every type of block
      </label>
      <label style={{ display: 'block' }}>
        <input type="radio" name={`${path}-mode`} checked={!every} onChange={() => setOnly(true)} /> Only the types
        ticked below
      </label>
      {!every && (
        <ul style={{ listStyle: 'none', margin: '0.5rem 0 0 1.5rem', padding: 0 }} data-cwa-allowed-types="">
          {types === null && <li>Loading the block types…</li>}
          {listed.map((type) => (
            <li key={type.iri}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen?.includes(type.iri) ?? false}
                  onChange={() => toggle(type.iri)}
                />{' '}
                {type.label}
              </label>
            </li>
          ))}
        </ul>
      )}
      <p className="field-description">
        Editors may add only these types to this group; every type when none is chosen.
      </p>
    </fieldset>
  )
}
