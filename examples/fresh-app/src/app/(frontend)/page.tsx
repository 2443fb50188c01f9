import { getPayload } from 'payload'
import React from 'react'

import config from '@payload-config'

export default async function HomePage() {
  const payload = await getPayload({ config: await config })
  return (
    <div className="home">
      <h1>Welcome to your new project.</h1>
      <a href={payload.getAdminURL()}>Go to admin panel</a>
    </div>
  )
}
