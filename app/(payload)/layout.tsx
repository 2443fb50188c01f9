/* Payload admin panel: root layout of the (payload) route group (Payload 3 template). */
import '@payloadcms/next/css'
import './custom.css'
import { handleServerFunctions, RootLayout } from '@payloadcms/next/layouts'
import type { ServerFunctionClient } from 'payload'
import type React from 'react'

import { importMap } from './admin/importMap'
import { loadConfig } from './loadConfig'

type Args = {
  children: React.ReactNode
}

// The admin panel's server functions (form state, table state, document
// drawers...) reach the server as Next.js server actions posted to the admin
// page itself: no API route is needed for them. Payload's REST API at /api,
// which the admin panel also calls (login, documents), is served by Express.
const serverFunction: ServerFunctionClient = async function (args) {
  'use server'
  return handleServerFunctions({
    ...args,
    config: loadConfig(),
    importMap,
  })
}

const Layout = ({ children }: Args) => (
  <RootLayout config={loadConfig()} importMap={importMap} serverFunction={serverFunction}>
    {children}
  </RootLayout>
)

export default Layout
