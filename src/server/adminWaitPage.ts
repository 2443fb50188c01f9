import { existsSync } from 'node:fs'
import path from 'node:path'

/** What /admin answers (503) while the admin panel is being built or started, or could not be built. */
export function adminWaitPage(root: string, problem?: string): string {
  const building = !existsSync(path.join(root, '.next', 'BUILD_ID'))
  const text =
    problem ??
    (building
      ? 'Building the admin panel (first start only: 1 to 3 minutes on 2 cores; the server log shows its progress). The APIs already answer.'
      : 'Starting the admin panel (a few seconds).') + ' This page reloads by itself.'
  const refresh = problem ? '' : '<meta http-equiv="refresh" content="5">'
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${refresh}<title>Admin panel</title></head><body><p>${text}</p></body></html>`
}
