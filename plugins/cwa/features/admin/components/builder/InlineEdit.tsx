'use client'
import { Button, TextInput } from '@payloadcms/ui'
import React, { useState } from 'react'
import { ApiError, apiFetch } from '../../../../core/admin/api.js'
import type { BuilderContext, Component } from './types.js'
import { useUnsavedText } from './unsaved.js'

/**
 * The block's main field, edited where it is (PATCH of the block: a live one's edit goes to its draft). A save over
 * someone else's (412) keeps this text in the box and shows theirs on the row, both at hand.
 */
export function InlineEdit({
  component,
  ctx,
  onDone,
}: {
  component: Component
  ctx: BuilderContext
  onDone: () => void
}) {
  const main = component.main!
  const [value, setValue] = useState(main.value ?? '')
  const [conflict, setConflict] = useState(false)
  const label = main.kind === 'file' ? 'Alt text' : (main.label ?? main.name)
  useUnsavedText(ctx.unsaved, `inline:${component['@id']}`, value !== (main.value ?? ''))
  const save = async () => {
    let refused = false
    const ok = await ctx.write(async () => {
      try {
        await apiFetch(component['@id'], { method: 'PATCH', body: { [main.name]: value }, ifMatch: main.version })
      } catch (error) {
        // Someone saved this block since the builder showed it: theirs stays (the view reloads), this text stays.
        if (!(error instanceof ApiError) || error.status !== 412) throw error
        refused = true
      }
    })
    setConflict(refused)
    if (ok && !refused) onDone()
  }
  return (
    <div style={{ width: '100%', marginTop: 6 }} data-testid="inline-edit">
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
        <div style={{ flex: 1 }}>
          <TextInput
            path={`cwaInline_${component.id}`}
            label={label}
            value={value}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => setValue(e.target.value)}
          />
        </div>
        <Button buttonStyle="primary" size="small" margin={false} onClick={() => void save()}>
          {conflict ? 'Save mine' : 'Save'}
        </Button>
        <Button buttonStyle="subtle" size="small" margin={false} onClick={onDone}>
          Cancel
        </Button>
      </div>
      {conflict && (
        <p role="alert" data-testid="inline-conflict" style={{ margin: '6px 0 0', fontSize: 13 }}>
          Someone else saved this block since you opened it. Theirs: “{main.value ?? ''}”. Yours is still in the box:
          “Save mine” replaces theirs, Cancel keeps theirs.
        </p>
      )}
    </div>
  )
}
