'use client'
import { useConfig, useTranslation } from '@payloadcms/ui'
import { useCallback } from 'react'
import { adminDate } from './dates.js'

/**
 * One date format in every view of the library: Payload's (the config's `admin.dateFormat`, in the editor's
 * language), as its own lists and fields show dates.
 */
export function useAdminDate(): (value: Date | string | number | null | undefined) => string {
  const { i18n } = useTranslation()
  const { config } = useConfig()
  const pattern = config.admin?.dateFormat
  return useCallback((value) => adminDate(value, i18n, pattern || undefined), [i18n, pattern])
}
