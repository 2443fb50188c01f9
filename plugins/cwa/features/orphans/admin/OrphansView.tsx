/**
 * The orphaned-resource report in the admin (a view at /admin/cwa/orphaned;
 * the orphan alert e-mail's button lands here): the server part reads the
 * stored report and names each record (title, type, age, link: one read per
 * collection, with the editor's access), OrphansPanel scans and deletes
 * through the JSON-LD endpoints and re-renders this view after each.
 */
import type { AdminViewServerProps } from 'payload'
import React from 'react'
import { AdminFrame } from '../../../core/admin/AdminFrame.js'
import { adminDate, age } from '../../../core/admin/dates.js'
import { getOptions } from '../../../core/registry.js'
import { describeIris } from '../../adminTitles/index.js'
import { loadReport } from '../report.js'
import { type OrphanKind, type OrphanRow, OrphansPanel } from './OrphansPanel.js'

const KINDS: Array<[OrphanKind, string]> = [
  ['components', 'Blocks'],
  ['componentPositions', 'Positions'],
  ['componentGroups', 'Groups'],
]

export async function OrphansView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req } = initPageResult
  const report = req.user ? await loadReport(req.payload, 'latest', req) : null
  const pattern = req.payload.config.admin?.dateFormat
  const language = req.i18n?.language ?? 'en'
  const sections = report
    ? await Promise.all(
        KINDS.map(async ([kind, heading]) => ({
          kind,
          heading,
          rows: (await describeIris(req, report[kind])).map((row): OrphanRow => ({
            iri: row.iri ?? '',
            title: row.title,
            type: row.type,
            icon: row.icon,
            href: row.href,
            exists: row.exists,
            age: row.createdAt ? age(row.createdAt, language) : '',
            created: row.createdAt ? adminDate(row.createdAt, req.i18n, pattern) : '',
          })),
        })),
      )
    : null
  return (
    <AdminFrame initPageResult={initPageResult} params={params} searchParams={searchParams} title="Orphaned resources">
      <OrphansPanel
        apiPrefix={getOptions(req.payload.config).apiPrefix}
        generatedAt={report ? adminDate(report.generatedAt, req.i18n, pattern) : null}
        generatedAge={report ? age(report.generatedAt, language) : null}
        sections={sections}
      />
    </AdminFrame>
  )
}
