'use client'
/**
 * A record list's "Default query parameters" as rows of a name and a value (`search` = `first`,
 * `order[title]` = `asc`), instead of Payload's JSON editor, which loads its code from a CDN. The API's JSON object
 * is flattened to query-string names and rebuilt on each change (queryParameters.ts).
 */
import { Button, useField } from '@payloadcms/ui'
import React, { useState } from 'react'
import { objectOf, type QueryRow, rowsOf } from './queryParameters.js'

export function QueryParametersField({ path }: { path: string }) {
  const { value, setValue } = useField<Record<string, unknown> | null>({ path })
  const [rows, setRows] = useState<QueryRow[]>(() => rowsOf(value))
  const change = (next: QueryRow[]) => {
    setRows(next)
    setValue(objectOf(next))
  }
  const edit = (index: number, part: Partial<QueryRow>) =>
    change(rows.map((row, at) => (at === index ? { ...row, ...part } : row)))
  return (
    <fieldset className="field-type cwa-query-parameters" style={{ border: 0, padding: 0, margin: '0 0 var(--base)' }}>
      <legend className="field-label">Default query parameters</legend>
      {rows.map((row, index) => (
        <div key={index} style={{ display: 'flex', gap: '0.5rem', marginBottom: '0.5rem' }} data-cwa-query-row="">
          <input
            aria-label={`Parameter ${index + 1} name`}
            placeholder="order[title]"
            value={row.name}
            onChange={(event) => edit(index, { name: event.target.value })}
          />
          <input
            aria-label={`Parameter ${index + 1} value`}
            placeholder="asc"
            value={row.value}
            onChange={(event) => edit(index, { value: event.target.value })}
          />
          <Button
            buttonStyle="secondary"
            size="small"
            margin={false}
            onClick={() => change(rows.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        buttonStyle="secondary"
        size="small"
        margin={false}
        onClick={() => change([...rows, { name: '', value: '' }])}
      >
        Add a parameter
      </Button>
      <p className="field-description">
        {'Added to every read of the list, e.g. '}
        <code>search</code>
        {' = '}
        <code>first</code>
        {', '}
        <code>order[title]</code>
        {' = '}
        <code>asc</code>
        {". A visitor's own parameters win."}
      </p>
    </fieldset>
  )
}
