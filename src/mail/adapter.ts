import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import type { EmailAdapter } from 'payload'

/**
 * Mail transport from MAILER_DSN (e.g. smtp://127.0.0.1:2525). Unset: no
 * adapter, so Payload logs each email instead of sending it.
 */
export function mailAdapter(env: NodeJS.ProcessEnv = process.env): Promise<EmailAdapter> | undefined {
  const dsn = env.MAILER_DSN
  if (!dsn) return undefined
  return nodemailerAdapter({
    defaultFromAddress: env.MAILER_FROM_ADDRESS ?? 'no-reply@localhost',
    defaultFromName: env.MAILER_FROM_NAME ?? 'payload-cwa',
    transportOptions: dsn,
    skipVerify: true,
  }) as unknown as Promise<EmailAdapter>
}
