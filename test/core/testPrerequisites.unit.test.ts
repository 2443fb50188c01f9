/**
 * Issue 38, README's `npm test` on a fresh machine: a run whose files need Varnish or chromium that the machine
 * lacks stops before any test with one message naming what is missing and the command that installs it (it used
 * to end with 21 late failures, `spawn varnishd ENOENT`); a run that needs neither is not held up.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A PATH with what the check itself runs (node, npx, sh, dpkg) and nothing else: no varnishd on it. */
function pathWithoutVarnish(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cwa-path-'))
  const which = (command: string) => execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim()
  for (const command of ['node', 'npx', 'sh', 'dpkg']) symlinkSync(which(command), path.join(dir, command))
  return dir
}

function check(files: string[], env: Record<string, string>): string {
  const script = `import('./scripts/test-prerequisites.mjs').then((m) =>
    process.stdout.write(JSON.stringify(m.ensureTestPrerequisites(process.cwd(), ${JSON.stringify(files)}))))`
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' }),
  ) as string
}

describe('npm test prerequisites', () => {
  it('stops a browser test on a machine without chromium, naming it and the install command', () => {
    const message = check(['test/admin/signIn.test.ts'], {
      CHROMIUM_PATH: '/nonexistent/chromium',
      CWA_TEST_INSTALL: '0',
    })
    expect(message).toContain('chromium (/nonexistent/chromium)')
    expect(message).toContain('apt-get install -y --no-install-recommends chromium')
  })

  it('stops a Varnish test on a machine without varnishd, naming the Debian packages', () => {
    const message = check(['test/httpCache/routeGates.test.ts'], { PATH: pathWithoutVarnish(), CWA_TEST_INSTALL: '0' })
    expect(message).toContain('varnishd with the xkey vmod')
    expect(message).toContain('varnish varnish-modules')
  })

  it('does not hold up files that need neither', () => {
    expect(
      check(['test/readModel/admission.test.ts'], { CHROMIUM_PATH: '/nonexistent/chromium', CWA_TEST_INSTALL: '0' }),
    ).toBeNull()
  })
})
