import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import type { EmailAdapter } from 'payload'

/**
 * Mail transport from MAILER_DSN (e.g. smtp://127.0.0.1:2525). Unset: mail
 * is logged (recipient and subject only), not sent.
 */
export function mailAdapter(env: NodeJS.ProcessEnv = process.env): EmailAdapter | Promise<EmailAdapter> {
  const defaultFromAddress = env.MAILER_FROM_ADDRESS ?? 'no-reply@localhost'
  const defaultFromName = env.MAILER_FROM_NAME ?? 'payload-cwa'
  const dsn = env.MAILER_DSN
  if (!dsn) return loggingAdapter(defaultFromAddress, defaultFromName)
  return nodemailerAdapter({
    defaultFromAddress,
    defaultFromName,
    transportOptions: dsn,
    skipVerify: true,
  }) as unknown as Promise<EmailAdapter>
}

function loggingAdapter(defaultFromAddress: string, defaultFromName: string): EmailAdapter {
  return ({ payload }) => ({
    name: 'log',
    defaultFromAddress,
    defaultFromName,
    sendEmail: async (message) => {
      payload.logger.info({ to: message.to, subject: message.subject }, 'Email logged, not sent (MAILER_DSN is unset)')
      return { logged: true }
    },
  })
}
