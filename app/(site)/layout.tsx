/* The reference site's own website: root layout of the (site) route group, the pages rendered with payload-cwa/react. */
import type { Metadata } from 'next'
import type React from 'react'
import './site.css'

// No icon file: an empty one, so that browsers do not ask for /favicon.ico (a 404).
export const metadata: Metadata = { icons: { icon: 'data:,' } }

export default function SiteLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip" href="#main">
          Skip to the content
        </a>
        {children}
      </body>
    </html>
  )
}
