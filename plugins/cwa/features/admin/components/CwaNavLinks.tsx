'use client'
/** Links to the library's admin views, below the collections in the admin's navigation. */
import { useConfig } from '@payloadcms/ui'
import Link from 'next/link'
import React from 'react'

export function CwaNavLinks() {
  const admin = useConfig().config.routes.admin
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 16 }} data-testid="cwa-nav">
      <Link href={`${admin}/cwa/routes`}>Route tree</Link>
      <Link href={`${admin}/cwa/orphaned`}>Orphaned resources</Link>
    </div>
  )
}
