import type { AddressInfo, Server, Socket } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { waitFor } from './wait'

/**
 * A real SMTP server on loopback for tests: the service sends through
 * nodemailer to it (pass `dsn` as startTestServer's `mailerDsn`), and the
 * tests read what was delivered. Not a test file itself.
 *
 *   const smtp = await startSmtpServer()
 *   const server = await startTestServer({ mailerDsn: smtp.dsn })
 *   const mail = await smtp.waitFor((m) => m.to.includes('bob@example.com'))
 *   const [link] = linksIn(mail)
 *   smtp.reject('rcpt')  // the next sends fail (SMTP 550): transport failure
 *   await smtp.idle()    // no mail in flight: what was not received was not sent
 *
 * The service sends its mail inside the request that causes it (the
 * response waits for the SMTP answer: a refusal is a 503), so once the
 * response is in and no SMTP connection is open, every email of that
 * request has been received here. test/support/mail.ts starts both servers
 * for a test file.
 */

export interface ReceivedMessage {
  /** Envelope sender and recipients (lower-case addresses). */
  from: string
  to: string[]
  /** Header names are lower-case; values unfolded and decoded (encoded words). */
  headers: Map<string, string>
  subject: string
  /** Decoded bodies of the text/plain and text/html parts ('' when absent). */
  text: string
  html: string
  raw: string
}

/** How the server treats mail: accept it, or refuse at RCPT TO / after DATA (permanent 550 / 554). */
export type SmtpMode = 'accept' | 'rcpt' | 'data'

export interface TestSmtpServer {
  dsn: string
  port: number
  messages: ReceivedMessage[]
  /** Resolves with the first message (already received or arriving within `timeoutMs`) matching the predicate. */
  waitFor(predicate: (message: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>
  /** Resolves once no SMTP connection is open: every send started so far has been received or refused. */
  idle(timeoutMs?: number): Promise<void>
  /** Messages to one recipient. */
  to(address: string): ReceivedMessage[]
  /** Refuses mail from now on ('rcpt' or 'data'); 'accept' restores normal delivery. */
  reject(mode: SmtpMode): void
  clear(): void
  close(): Promise<void>
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMessage[] = []
  let mode: SmtpMode = 'accept'
  const refusal = (text: string, code: number) => Object.assign(new Error(text), { responseCode: code })
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // No DNS lookup of the client per connection (slow, and nothing to learn on loopback).
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      if (mode === 'rcpt') return callback(refusal('Mailbox unavailable (test server refusing mail)', 550))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (mode === 'data') return callback(refusal('Transaction failed (test server refusing mail)', 554))
        const raw = Buffer.concat(chunks as unknown as Uint8Array[]).toString('utf8')
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : ''
        messages.push(
          parseMessage(
            raw,
            from,
            session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ),
        )
        callback()
      })
    },
  })
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const listener = (server as unknown as { server: Server }).server
  const port = (listener.address() as AddressInfo).port
  let open = 0
  listener.on('connection', (socket: Socket) => {
    open++
    socket.once('close', () => open--)
  })

  return {
    dsn: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor: (predicate, timeoutMs = 5000) =>
      waitFor(() => messages.find(predicate), {
        timeout: timeoutMs,
        message: () => `a matching email (${messages.length} received)`,
      }),
    async idle(timeoutMs = 5000) {
      await waitFor(() => open === 0, { timeout: timeoutMs, message: 'the SMTP connections to close' })
    },
    to: (address) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    reject(next) {
      mode = next
    },
    clear() {
      messages.length = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Every http(s) link of a message: hrefs of the HTML part, then URLs of the text part, without duplicates. */
export function linksIn(message: Pick<ReceivedMessage, 'html' | 'text'>): string[] {
  const html = [...message.html.matchAll(/href="([^"]+)"/g)].map((m) => unescapeHtml(m[1]!))
  const text = [...message.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0])
  return [...new Set([...html, ...text])]
}

/** The links of the HTML part and of the text part separately (to check both carry the same one). */
export function linksByPart(message: Pick<ReceivedMessage, 'html' | 'text'>): { html: string[]; text: string[] } {
  return {
    html: [...message.html.matchAll(/href="([^"]+)"/g)].map((m) => unescapeHtml(m[1]!)),
    text: [...message.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
  }
}

function unescapeHtml(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  )
}

// ---- a small MIME reader: enough for what nodemailer sends (multipart/alternative, quoted-printable or base64, encoded words) ----

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/)
  const head = end === -1 ? raw : raw.slice(0, end)
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '')
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()))
  }
  return { headers, body }
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = []
  const source = value.replace(/=\r?\n/g, '')
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === '=' ? source.slice(i + 1, i + 3) : ''
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(source[i]!, 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    default:
      return body
  }
}

/** Leaf parts of a MIME entity, with their content types. */
function leafParts(raw: string): Array<{ type: string; content: string }> {
  const { headers, body } = splitHeaders(raw)
  const contentType = headers.get('content-type') ?? 'text/plain'
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
    if (!boundary) return []
    const sections = body.split(`--${boundary}`).slice(1)
    return sections
      .filter((section) => !section.startsWith('--'))
      .flatMap((section) => leafParts(section.replace(/^\r?\n/, '')))
  }
  return [
    { type, content: decodeBody(body, headers.get('content-transfer-encoding')).replace(/\r\n/g, '\n').trimEnd() },
  ]
}

export function parseMessage(raw: string, from = '', to: string[] = []): ReceivedMessage {
  const { headers } = splitHeaders(raw)
  const parts = leafParts(raw)
  return {
    from,
    to,
    headers,
    subject: headers.get('subject') ?? '',
    text: parts.find((p) => p.type === 'text/plain')?.content ?? '',
    html: parts.find((p) => p.type === 'text/html')?.content ?? '',
    raw,
  }
}
