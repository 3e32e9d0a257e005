/**
 * An SMTP server on loopback that keeps what it receives: the mail server is outside Switch,
 * so tests capture it instead of sending anywhere. No TLS, no authentication.
 */
import { SMTPServer } from "smtp-server"

export interface CapturedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  /** The raw message (headers and body) as received. */
  readonly raw: string
}

export interface SmtpCapture {
  readonly url: string
  readonly mails: ReadonlyArray<CapturedMail>
  /** The mails sent to `to` so far, waiting up to `timeoutMs` for at least one. */
  readonly waitFor: (to: string, timeoutMs?: number) => Promise<ReadonlyArray<CapturedMail>>
  readonly close: () => Promise<void>
}

/** Decodes a quoted-printable body enough to read its links (soft breaks and =XX escapes). */
export const unquote = (raw: string) =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))

export const startSmtpCapture = async (): Promise<SmtpCapture> => {
  const mails: CapturedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8")
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.server.address()
  if (address === null || typeof address === "string") throw new Error("expected a TCP address")
  const waitFor = async (to: string, timeoutMs = 5_000) => {
    const until = Date.now() + timeoutMs
    for (;;) {
      const found = mails.filter((mail) => mail.to.includes(to))
      if (found.length > 0 || Date.now() > until) return found
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
