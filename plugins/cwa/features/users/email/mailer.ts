import type { Payload } from 'payload'

/** One outbound email: both an HTML and a plain-text body. */
export interface OutgoingEmail {
  to: string
  subject: string
  html: string
  text: string
}

/** The transport refused or failed to take the email (SMTP error, connection refused...). */
export class MailTransportError extends Error {
  constructor(readonly cause: unknown) {
    super('The email could not be sent.')
    this.name = 'MailTransportError'
  }
}

/** Moving average of recent send durations (ms), so a concealed "no such user" answer can take as long as a real send. */
let averageSendMs = 25
let measured = false

export function typicalSendMs(): number {
  return averageSendMs
}

function noteSendTime(ms: number): void {
  averageSendMs = measured ? Math.round(averageSendMs * 0.8 + ms * 0.2) : ms
  measured = true
}

/**
 * Sends through the configured email adapter (src/mail/adapter.ts:
 * nodemailer on MAILER_DSN, or the logging adapter when it is unset).
 * The nodemailer adapter returns transport.sendMail's promise, so an SMTP
 * refusal (RCPT or DATA rejected, connection refused) rejects here: it is
 * logged without the message body and thrown as MailTransportError, which
 * the request-driven flows turn into 503.
 */
export async function sendMail(payload: Payload, email: OutgoingEmail): Promise<void> {
  const started = Date.now()
  try {
    await payload.sendEmail({ to: email.to, subject: email.subject, html: email.html, text: email.text })
  } catch (error) {
    payload.logger.error({ err: error, subject: email.subject }, 'Email could not be sent')
    throw new MailTransportError(error)
  }
  noteSendTime(Date.now() - started)
}
