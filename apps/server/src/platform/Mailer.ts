/**
 * Outgoing mail (DESIGN §8): one-time links to set a password, invitations, resets.
 *
 * With `SWITCH_SMTP_URL` the mail goes through that SMTP server (nodemailer). Without it, in
 * development, each mail is kept as one JSON file in the data directory (`correos/`), or in the
 * process's memory when no directory is given (the tests' servers), and the development mailbox
 * (`/panel/dev/correos`) lists them. In production without `SWITCH_SMTP_URL` nothing is sent:
 * the server still starts (an API-only deployment needs no mail), says so at start, and
 * {@link Mailer} `send` fails with {@link MailUnavailable}, which the routes that need mail
 * answer as `503 correo_no_configurado`.
 *
 * A mail's text carries one-time tokens, so nothing here logs a mail's text or subject line
 * beyond what {@link describe} prints; a failure is logged by the caller with its reason only.
 */
import { randomUUID } from "node:crypto"
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import nodemailer from "nodemailer"
import { type ServerSettings, Settings } from "../Config.js"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** A mail kept by the development store. */
export interface KeptMail extends Mail {
  readonly id: string
  readonly from: string
  /** When it was "sent" (ISO, UTC). */
  readonly at: string
}

/** The mail could not be handed over: no SMTP in production, or the SMTP server refused or failed. */
export class MailUnavailable extends Data.TaggedError("MailUnavailable")<{ readonly reason: string }> {}

export class Mailer extends Context.Tag("@switch/server/Mailer")<
  Mailer,
  {
    readonly send: (mail: Mail) => Effect.Effect<void, MailUnavailable>
    /** The development store's mails, newest first; none when mail goes out by SMTP or nowhere. */
    readonly kept: Option.Option<Effect.Effect<ReadonlyArray<KeptMail>>>
    /** One line for the start-up banner: where mail goes. */
    readonly describe: string
    /** Whether mail can go anywhere at all (false: production without SWITCH_SMTP_URL). */
    readonly available: boolean
  }
>() {}

/** How long one SMTP delivery may take before it counts as failed. */
const SMTP_TIMEOUT_MS = 15_000

/** The sender: `Switch <no-responder@host>` for the service's own host. */
export const fromAddress = (baseUrl: string) => {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : "localhost"
  return `Switch <no-responder@${host.includes(".") ? host : `${host}.local`}>`
}

/** The SMTP server's address without its credentials, for the banner. */
const withoutCredentials = (url: string) => {
  if (!URL.canParse(url)) return "SMTP"
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}`
}

const smtpMailer = (url: string, from: string) => {
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS
  })
  return Mailer.of({
    send: (mail) =>
      Effect.tryPromise({
        try: () => transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text }),
        // The reason only (a code and a short message), never the mail.
        catch: (error) =>
          new MailUnavailable({
            reason: `el servidor SMTP no aceptó el correo: ${error instanceof Error ? error.message.slice(0, 200) : "error"}`
          })
      }).pipe(Effect.asVoid),
    kept: Option.none(),
    describe: `SMTP ${withoutCredentials(url)}`,
    available: true
  })
}

const fileMailer = (dir: string, from: string) => {
  const send = (mail: Mail) =>
    Effect.tryPromise({
      try: async () => {
        await mkdir(dir, { recursive: true })
        const at = new Date()
        const id = randomUUID()
        const kept: KeptMail = { id, from, at: at.toISOString(), ...mail }
        const name = `${at.toISOString().replaceAll(":", "-")}-${id.slice(0, 8)}.json`
        await writeFile(join(dir, name), JSON.stringify(kept, null, 2), { mode: 0o600 })
      },
      catch: (error) =>
        new MailUnavailable({ reason: `no se pudo guardar el correo: ${(error as Error).message}` })
    })
  const kept = Effect.promise(async () => {
    const names = await readdir(dir).catch(() => [] as string[])
    const mails = await Promise.all(
      names
        .filter((name) => name.endsWith(".json"))
        .map(async (name) => JSON.parse(await readFile(join(dir, name), "utf8")) as KeptMail)
    )
    return mails.sort((a, b) => b.at.localeCompare(a.at))
  })
  return Mailer.of({
    send,
    kept: Option.some(kept),
    describe: `guardado en ${dir} (desarrollo)`,
    available: true
  })
}

const memoryMailer = (from: string) => {
  const mails: KeptMail[] = []
  return Mailer.of({
    send: (mail) =>
      Effect.sync(() => {
        mails.unshift({ id: randomUUID(), from, at: new Date().toISOString(), ...mail })
      }),
    kept: Option.some(Effect.sync(() => [...mails])),
    describe: "guardado en memoria (desarrollo)",
    available: true
  })
}

const unavailable = Mailer.of({
  send: () =>
    Effect.fail(new MailUnavailable({ reason: "SWITCH_SMTP_URL no está definido: no se envían correos" })),
  kept: Option.none(),
  describe: "sin SWITCH_SMTP_URL: no se envían correos (invitaciones y enlaces de contraseña responden 503)",
  available: false
})

/** Where mail goes under these settings, for the start-up banner. */
export const describeMail = (settings: ServerSettings) =>
  Option.isSome(settings.smtpUrl)
    ? `SMTP ${withoutCredentials(Redacted.value(settings.smtpUrl.value))}`
    : settings.environment === "production"
      ? "sin SWITCH_SMTP_URL: no se envían correos (invitaciones y enlaces de contraseña responden 503)"
      : `guardados en ${settings.correosDir ?? "memoria"}, ver /panel/dev/correos`

/** The mailer these settings call for (see the header). */
export const MailerLive = Layer.effect(
  Mailer,
  Effect.map(Settings, (settings) => {
    const from = fromAddress(settings.baseUrl)
    if (Option.isSome(settings.smtpUrl)) return smtpMailer(Redacted.value(settings.smtpUrl.value), from)
    if (settings.environment === "production") return unavailable
    return settings.correosDir === null ? memoryMailer(from) : fileMailer(settings.correosDir, from)
  })
)
