/**
 * Mail: through SMTP when SWITCH_SMTP_URL is set (a capture server stands for it), kept as one
 * file per mail in development without it and listed at /panel/dev/correos, which production
 * never serves; production without SMTP refuses to send.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer, testSettings } from "../../test/harness.js"
import { type SmtpCapture, startSmtpCapture, unquote } from "../../test/smtpCapture.js"
import { Settings } from "../Config.js"
import { Mailer, MailerLive } from "../platform/Mailer.js"

const send = (
  settings: Parameters<typeof testSettings>[0],
  mail: { to: string; subject: string; text: string }
) =>
  Effect.runPromise(
    Effect.flatMap(Mailer, (mailer) => Effect.either(mailer.send(mail))).pipe(
      Effect.provide(MailerLive),
      Effect.provideService(Settings, testSettings(settings))
    )
  )

let smtp: SmtpCapture
let dir: string
beforeAll(async () => {
  smtp = await startSmtpCapture()
  dir = mkdtempSync(join(tmpdir(), "correos-"))
})
afterAll(async () => {
  await smtp?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("Mailer", () => {
  it("sends through SWITCH_SMTP_URL, from the service's host, with the text as given", async () => {
    const result = await send(
      { smtpUrl: Option.some(Redacted.make(smtp.url)), environment: "production" },
      {
        to: "ana@example.com",
        subject: "Hola",
        text: "Tu enlace: http://pagos.test/panel/contrasena?token=abc"
      }
    )
    expect(result._tag).toBe("Right")
    const [mail] = await smtp.waitFor("ana@example.com")
    expect(mail?.from).toBe("no-responder@pagos.test")
    expect(unquote(mail?.raw ?? "")).toContain("http://pagos.test/panel/contrasena?token=abc")
    expect(mail?.raw).toContain("Subject: Hola")
  })

  it("keeps each mail as one file in the data directory in development without SMTP", async () => {
    const result = await send({ correosDir: dir }, { to: "b@example.com", subject: "Uno", text: "texto" })
    expect(result._tag).toBe("Right")
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    const kept = JSON.parse(readFileSync(join(dir, files[0] as string), "utf8"))
    expect(kept).toMatchObject({ to: "b@example.com", subject: "Uno", text: "texto" })
  })

  it("refuses to send in production without SWITCH_SMTP_URL, and keeps nothing", async () => {
    const result = await send(
      { environment: "production", correosDir: null },
      { to: "c@example.com", subject: "x", text: "y" }
    )
    expect(result._tag).toBe("Left")
    expect(smtp.mails.some((mail) => mail.to.includes("c@example.com"))).toBe(false)
  })

  it("fails (never hangs or dies) when the SMTP server is not there", async () => {
    const result = await send(
      { smtpUrl: Option.some(Redacted.make("smtp://127.0.0.1:9")) },
      { to: "d@example.com", subject: "x", text: "y" }
    )
    expect(result._tag).toBe("Left")
  })
})

describe("/panel/dev/correos", () => {
  let dev: TestServer
  let production: TestServer
  let devDir: string
  beforeAll(async () => {
    devDir = mkdtempSync(join(tmpdir(), "correos-dev-"))
    dev = await startServer({ settings: { correosDir: devDir } })
    production = await startServer({ settings: { environment: "production" } })
  })
  afterAll(async () => {
    await dev?.close()
    await production?.close()
    rmSync(devDir, { recursive: true, force: true })
  })

  it("lists the kept mails in development, as a page and as JSON, never cached", async () => {
    await send(
      { correosDir: devDir },
      { to: "e@example.com", subject: "Prueba <1>", text: "http://x.test/a" }
    )
    const page = await fetch(`${dev.url}/panel/dev/correos`)
    expect(page.status).toBe(200)
    expect(page.headers.get("cache-control")).toBe("no-store")
    const html = await page.text()
    expect(html).toContain("Prueba &lt;1&gt;")
    expect(html).toContain('<a href="http://x.test/a">')
    const json = (await (await fetch(`${dev.url}/panel/dev/correos?formato=json`)).json()) as Array<unknown>
    expect(json[0]).toMatchObject({ to: "e@example.com", subject: "Prueba <1>" })
  })

  it("is 404 in production, not the portal's page", async () => {
    for (const path of ["/panel/dev/correos", "/panel/dev/correos/", "/panel/dev/correos?formato=json"]) {
      const response = await fetch(`${production.url}${path}`)
      expect(response.status, path).toBe(404)
      expect(await response.text()).not.toContain("<html")
    }
  })

  it("is 404 in development when mail goes out by SMTP", async () => {
    const smtpServer = await startServer({ settings: { smtpUrl: Option.some(Redacted.make(smtp.url)) } })
    try {
      expect((await fetch(`${smtpServer.url}/panel/dev/correos`)).status).toBe(404)
    } finally {
      await smtpServer.close()
    }
  })
})
