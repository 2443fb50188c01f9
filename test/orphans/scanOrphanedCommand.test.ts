import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type CommandRun as Run, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'
import { startSmtpServer, type TestSmtpServer } from '../support/smtp'
import { group, position, title } from '../support/componentTree'

/**
 * `npx payload cwa:scan-orphaned` and its alias `cwa:clean-orphaned`
 * (contract: operator console commands, orphan alert e-mail rules 1-6), run
 * as real child processes against the test database, sending through a real
 * SMTP server on loopback. Each run boots Payload (a few seconds); the runs
 * of a describe block build on each other, in order.
 */

let server: TestServer
let smtp: TestSmtpServer
const dir = mkdtempSync(path.join(tmpdir(), 'cwa-orphans-'))

const SENT = 'Orphaned resources: report changed and notification sent.'
const UNCHANGED = 'Orphaned resources: report not changed, none sent.'
const NOT_SENT = 'Orphaned resources: report changed but the notification could not be sent.'

function configFile(name: string, options: Record<string, unknown>): string {
  const file = path.join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(options))
  return file
}

const withRecipients = () =>
  configFile('recipients', {
    user: { emailLinks: { defaultOrigin: 'https://front.example' } },
    orphanedResources: { notify: { recipients: 'Ops Team <ops@example.com>, second@example.com' } },
  })

function run(command: string, args: string[], config: string, env: Record<string, string> = {}): Promise<Run> {
  return runPayloadCommand(command, args, {
    DATABASE_URL: server.databaseUrl,
    MAILER_DSN: smtp.dsn,
    CWA_CONFIG_FILE: config,
    ...env,
  })
}

async function scanOrphaned(
  args: string[] = [],
  config = withRecipients(),
  command = 'cwa:scan-orphaned',
): Promise<Run> {
  const result = await run(command, args, config)
  if (result.code !== 0)
    throw new Error(`${command} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`)
  await smtp.idle()
  return result
}

const lastLine = (r: Run) =>
  r.stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('Orphaned resources:'))
    .pop()
const alerted = async () =>
  (
    await server.sql(`SELECT generated_at, components FROM _acb_orphaned_resources_reports WHERE kind = 'alerted'`)
  )[0] ?? null

beforeAll(async () => {
  smtp = await startSmtpServer()
  server = await startTestServer({ mailerDsn: smtp.dsn })
})
afterAll(async () => {
  await server?.close()
  await smtp?.close()
})

describe('alert rules across runs', () => {
  let first: string
  let second: string

  it('no orphans and no earlier alert: not changed, nothing sent, the report stored anyway, exit 0', async () => {
    const result = await scanOrphaned()
    expect(lastLine(result)).toBe(UNCHANGED)
    expect(result.stdout).toContain('Orphaned components: 0')
    expect(smtp.messages).toHaveLength(0)
    expect(
      (await server.get('/_api/_/orphaned_resources', { token: await server.tokenFor('ROLE_ADMIN') })).status,
    ).toBe(200)
  })

  it('orphans appear: one e-mail to every recipient (list in a comma string, Name <address> forms) with the counts, the new IRIs and the admin button; -v prints the IRIs', async () => {
    first = await title(server.payload)
    const result = await scanOrphaned(['-v'])
    expect(lastLine(result)).toBe(SENT)
    expect(result.stdout).toContain(`/_api/component/titles/${first}`)
    expect(smtp.messages).toHaveLength(1)
    const [mail] = smtp.messages
    expect(mail!.to.sort()).toEqual(['ops@example.com', 'second@example.com'])
    expect(mail!.headers.get('to')).toContain('Ops Team')
    expect(mail!.text).toContain('Components: 1')
    expect(mail!.text).toContain('Component groups: 0')
    expect(mail!.text).toContain(`/_api/component/titles/${first}`)
    expect(mail!.text).toContain('No longer orphaned: 0')
    expect(mail!.html).toContain('href="https://front.example/_cwa/orphaned"')
    expect((await alerted()).components).toEqual([`/_api/component/titles/${first}`])
  })

  it('the same result again: not changed, none sent, the last alert moves (it matches)', async () => {
    const before = await alerted()
    const result = await scanOrphaned()
    expect(lastLine(result)).toBe(UNCHANGED)
    expect(smtp.messages).toHaveLength(1)
    const after = await alerted()
    expect(after.generated_at > before.generated_at).toBe(true)
  })

  it('a send failure: the changed line, exit 0, an error logged, the report stored but the last alert stays put', async () => {
    second = await title(server.payload)
    smtp.reject('rcpt')
    const before = await alerted()
    try {
      const result = await scanOrphaned()
      expect(lastLine(result)).toBe(NOT_SENT)
      expect(`${result.stdout}${result.stderr}`).toMatch(/Orphan alert e-mail could not be sent/)
    } finally {
      smtp.reject('accept')
    }
    expect(await alerted()).toEqual(before)
    const [latest] = await server.sql(`SELECT components FROM _acb_orphaned_resources_reports WHERE kind = 'latest'`)
    expect(latest.components).toContain(`/_api/component/titles/${second}`)
  })

  it('--no-notify: nothing sent, the last alert stays put; the next run with notify sends only what is new since the last alert', async () => {
    const before = await alerted()
    const quiet = await scanOrphaned(['--no-notify'])
    expect(lastLine(quiet)).toBe(NOT_SENT)
    expect(await alerted()).toEqual(before)
    smtp.clear()
    const loud = await scanOrphaned(['--notify'])
    expect(lastLine(loud)).toBe(SENT)
    expect(smtp.messages).toHaveLength(1)
    const [mail] = smtp.messages
    expect(mail!.text).toContain('New since the last alert (1):')
    expect(mail!.text).toContain(`/_api/component/titles/${second}`)
    expect(mail!.text).not.toContain(`  /_api/component/titles/${first}`)
  })

  it('an orphan no longer orphaned is counted; order of the lists never counts as a change', async () => {
    await server.payload.delete({ collection: 'titles', id: first, depth: 0 })
    smtp.clear()
    const result = await scanOrphaned()
    expect(lastLine(result)).toBe(SENT)
    expect(smtp.messages[0]!.text).toContain('No longer orphaned: 1')
    // Same IRIs stored in another order: not a change.
    await server.sql(
      `UPDATE _acb_orphaned_resources_reports SET components = (SELECT jsonb_agg(x ORDER BY x DESC) FROM jsonb_array_elements(components) x) WHERE kind = 'alerted'`,
    )
    const again = await scanOrphaned()
    expect(lastLine(again)).toBe(UNCHANGED)
  })

  it('clean-orphaned is an alias: it scans and alerts the same way and deletes nothing', async () => {
    const g = await group(server.payload)
    const t = await title(server.payload)
    await position(server.payload, g, { slug: 'titles', id: t })
    smtp.clear()
    const result = await scanOrphaned([], withRecipients(), 'cwa:clean-orphaned')
    expect(lastLine(result)).toBe(SENT)
    expect(smtp.messages[0]!.text).toContain('Component groups: 1')
    expect(await server.sql('SELECT id FROM _acb_titles WHERE id = $1', [t])).toHaveLength(1)
    expect(await server.sql('SELECT id FROM _acb_component_groups WHERE id = $1', [g])).toHaveLength(1)
  })
})

describe('POST /_/orphaned_resources/delete', () => {
  it('e-mails no one, even with recipients set and the orphans changed (only the console command alerts)', async () => {
    const notifying = await startTestServer({
      mailerDsn: smtp.dsn,
      options: { orphanedResources: { notify: { recipients: 'ops@example.com' } } },
    })
    try {
      const admin = await notifying.tokenFor('ROLE_ADMIN')
      const orphan = await title(notifying.payload)
      await smtp.idle()
      smtp.clear()
      expect((await notifying.post('/_api/_/orphaned_resources/scan', undefined, { token: admin })).status).toBe(202)
      const response = await notifying.post('/_api/_/orphaned_resources/delete', { all: true }, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body.deleted.components).toEqual([`/_api/component/titles/${orphan}`])
      await smtp.idle()
      expect(smtp.messages).toEqual([])
    } finally {
      await notifying.close()
    }
  })
})

describe('recipients and the admin button', () => {
  it('no recipients (null): nothing sent, the last alert stays put', async () => {
    await title(server.payload)
    const before = await alerted()
    smtp.clear()
    const result = await scanOrphaned([], configFile('nobody', { orphanedResources: { notify: { recipients: null } } }))
    expect(lastLine(result)).toBe(NOT_SENT)
    expect(smtp.messages).toHaveLength(0)
    expect(await alerted()).toEqual(before)
  })

  it('no usable defaultOrigin: the e-mail goes without the button and a warning is logged; a list of recipients and a custom subject and admin path are used', async () => {
    smtp.clear()
    const result = await scanOrphaned(
      [],
      configFile('nobutton', {
        orphanedResources: {
          notify: { recipients: ['ops@example.com'], subject: 'Sweep time', adminPagePath: '/admin/orphans' },
        },
      }),
    )
    expect(lastLine(result)).toBe(SENT)
    const [mail] = smtp.messages
    expect(mail!.subject).toBe('Sweep time')
    expect(mail!.to).toEqual(['ops@example.com'])
    expect(mail!.html).not.toContain('href=')
    expect(`${result.stdout}${result.stderr}`).toMatch(/no usable user.emailLinks.defaultOrigin/)
  })

  it('an unknown argument is refused with the usage before reaching the database (exit 1)', async () => {
    const result = await run('cwa:scan-orphaned', ['--delete'], withRecipients(), {
      DATABASE_URL: UNREACHABLE_DATABASE_URL,
    })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      'Unknown argument --delete\nUsage: npx payload cwa:scan-orphaned [--notify | --no-notify] [-v]',
    )
  })
})
