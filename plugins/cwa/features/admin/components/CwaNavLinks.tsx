'use client'
/** The library's admin views in the navigation, as a group of Payload's own (below the collections). */
import { Link, NavGroup, useConfig } from '@payloadcms/ui'
import { usePathname } from 'next/navigation.js'
import React from 'react'

const LINKS = [
  { path: '/cwa/routes', label: 'Route tree', id: 'nav-cwa-routes' },
  { path: '/cwa/orphaned', label: 'Orphaned resources', id: 'nav-cwa-orphaned' },
]

export function CwaNavLinks() {
  const admin = useConfig().config.routes.admin
  const pathname = usePathname()
  return (
    <div data-testid="cwa-nav">
      <NavGroup label="Site tools">
        {LINKS.map(({ path, label, id }) => {
          const href = `${admin}${path}`
          return (
            <Link key={path} className="nav__link" href={href} id={id} prefetch={false}>
              {pathname === href && <div className="nav__link-indicator" />}
              <span className="nav__link-label">{label}</span>
            </Link>
          )
        })}
      </NavGroup>
    </div>
  )
}
