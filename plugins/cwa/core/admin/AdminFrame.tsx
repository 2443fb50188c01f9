/**
 * The admin's frame (navigation, header) around a view of the library's own,
 * with its heading: what every custom admin view renders first.
 */
import { DefaultTemplate } from '@payloadcms/next/templates'
import { Gutter } from '@payloadcms/ui'
import type { AdminViewServerProps } from 'payload'
import React from 'react'

export function AdminFrame({
  initPageResult,
  params,
  searchParams,
  title,
  children,
}: Pick<AdminViewServerProps, 'initPageResult' | 'params' | 'searchParams'> & {
  title: string
  children: React.ReactNode
}) {
  const { req } = initPageResult
  return (
    <DefaultTemplate
      i18n={req.i18n}
      locale={initPageResult.locale}
      params={params}
      payload={req.payload}
      permissions={initPageResult.permissions}
      searchParams={searchParams}
      user={req.user ?? undefined}
      visibleEntities={initPageResult.visibleEntities}
    >
      <Gutter>
        <h1>{title}</h1>
        {children}
      </Gutter>
    </DefaultTemplate>
  )
}
