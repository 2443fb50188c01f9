'use client'
import { Button, Modal, useModal, useTranslation } from '@payloadcms/ui'
import React, { useEffect } from 'react'
import { useAdminDate } from '../../../core/admin/useAdminDate.js'

/** The field path under which the server reports a save refused because the record changed (payloadApis.ts). */
export const CONFLICT_PATH = '_cwaConflict'

export const CONFLICT_MODAL = 'cwa-save-conflict'

/**
 * Payload's "Document modified" dialog, for a save refused because the
 * record (or the draft the save goes to) changed since this form was
 * loaded: someone else's version opens in a new tab beside this one, and
 * the editor's own text stays in the form, unsaved, to be carried over.
 * Laid out with Payload's own stale-data dialog classes.
 */
export function ConflictDialog({
  message,
  currentUrl,
  onClose,
}: {
  message: string | null
  currentUrl: string | null
  onClose: () => void
}) {
  const { openModal, closeModal } = useModal()
  const { t } = useTranslation()
  const formatDate = useAdminDate()
  useEffect(() => {
    if (message) openModal(CONFLICT_MODAL)
    else closeModal(CONFLICT_MODAL)
  }, [message, openModal, closeModal])
  if (!message) return null
  // The server's sentence names moments in ISO 8601 (for API clients): the editor reads them as every date of the admin.
  const shown = message.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (iso) => formatDate(iso))
  const close = () => {
    closeModal(CONFLICT_MODAL)
    onClose()
  }
  return (
    <Modal className="document-stale-data cwa-conflict" closeOnBlur={false} slug={CONFLICT_MODAL}>
      <div className="document-stale-data__wrapper">
        <div className="document-stale-data__content">
          <h1>{t('general:documentModified')}</h1>
          <p className="cwa-conflict-message">{shown}</p>
          <p>
            Your changes are still in the form, not saved. Open the current version beside this one, carry your changes
            over to it and save there.
          </p>
        </div>
        <div className="document-stale-data__controls" style={{ display: 'flex', gap: 12 }}>
          {currentUrl ? (
            <Button
              buttonStyle="primary"
              className="cwa-conflict-open"
              el="anchor"
              margin={false}
              newTab
              size="medium"
              url={currentUrl}
            >
              Open the current version
            </Button>
          ) : null}
          <Button buttonStyle="secondary" className="cwa-conflict-keep" margin={false} onClick={close} size="medium">
            Keep my changes here
          </Button>
        </div>
      </div>
    </Modal>
  )
}
