'use client'
/**
 * The rarer actions of a block's row, in one menu (Payload's popup): move up, move down, remove. Moving and
 * removing change a position, which the contract makes live at once: on a public page the menu says so before the
 * click, and removing asks once more, in the row.
 */
import { Button, Popup, PopupList } from '@payloadcms/ui'
import React from 'react'

/** Read by assistive technology, not shown. */
const HIDDEN: React.CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
}

export function RowMenu({
  liveAtOnce,
  first,
  last,
  move,
  remove,
}: {
  liveAtOnce: boolean
  first: boolean
  last: boolean
  move: (by: -1 | 1) => void
  remove: () => void
}) {
  return (
    <Popup
      horizontalAlign="right"
      size="small"
      buttonType="custom"
      // Payload's trigger is the button (a focusable role=button): its name is the hidden words, not the dots.
      button={
        <span className="btn btn--style-subtle btn--size-small" style={{ margin: 0, padding: '0 8px' }}>
          <span aria-hidden>⋯</span>
          <span style={HIDDEN}>More actions</span>
        </span>
      }
      render={({ close }) => (
        <PopupList.ButtonGroup>
          {liveAtOnce && <PopupList.GroupLabel label="Goes live at once" />}
          <PopupList.Button
            disabled={first}
            onClick={() => {
              close()
              move(-1)
            }}
          >
            Move up
          </PopupList.Button>
          <PopupList.Button
            disabled={last}
            onClick={() => {
              close()
              move(1)
            }}
          >
            Move down
          </PopupList.Button>
          <PopupList.Button
            onClick={() => {
              close()
              remove()
            }}
          >
            Remove…
          </PopupList.Button>
        </PopupList.ButtonGroup>
      )}
    />
  )
}

/** Removing, asked once more on the row: what goes with it, and whether the site changes at once. */
export function ConfirmRemove({
  liveAtOnce,
  onConfirm,
  onCancel,
}: {
  liveAtOnce: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <div
      role="alertdialog"
      aria-label="Remove this block?"
      data-testid="confirm-remove"
      style={{ width: '100%', display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', fontSize: 13 }}
    >
      <span>
        Remove this block? Its component is deleted too when it is used nowhere else.
        {liveAtOnce ? ' The site no longer shows it from now on.' : ''}
      </span>
      <Button buttonStyle="error" size="small" margin={false} onClick={onConfirm}>
        Confirm remove
      </Button>
      <Button buttonStyle="subtle" size="small" margin={false} onClick={onCancel}>
        Keep it
      </Button>
    </div>
  )
}
