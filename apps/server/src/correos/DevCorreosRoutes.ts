/**
 * The development mailbox at `/panel/dev/correos`: the mails the development store kept
 * (platform/Mailer.ts), newest first, as a plain page, or as JSON with `?formato=json`. It
 * exists only with SWITCH_ENV=development and no SMTP server; otherwise the path answers 404
 * (registered anyway, so the portal's catch-all never answers it with the app's page).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { Settings } from "../Config.js"
import { type KeptMail, Mailer } from "../platform/Mailer.js"

export const DEV_MAILBOX_PATH = "/panel/dev/correos"

const NO_STORE = { "cache-control": "no-store" }

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string
  )

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g

const CARACAS = new Intl.DateTimeFormat("es-VE", {
  timeZone: "America/Caracas",
  dateStyle: "short",
  timeStyle: "medium"
})

const article = (mail: KeptMail) => {
  const links = [...new Set(mail.text.match(URL_PATTERN) ?? [])]
  return `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<dl><dt>Para</dt><dd>${escapeHtml(mail.to)}</dd><dt>De</dt><dd>${escapeHtml(mail.from)}</dd><dt>Fecha (Caracas)</dt><dd><time datetime="${escapeHtml(mail.at)}">${escapeHtml(CARACAS.format(new Date(mail.at)))}</time></dd></dl>
<pre>${escapeHtml(mail.text)}</pre>
${links.length === 0 ? "" : `<ul>${links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join("")}</ul>`}
</article>`
}

const page = (mails: ReadonlyArray<KeptMail>) => `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Correos de desarrollo · Switch</title></head>
<body>
<main>
<h1>Correos de desarrollo</h1>
<p>Solo en SWITCH_ENV=development sin SWITCH_SMTP_URL: estos correos no salieron de esta máquina.</p>
${mails.length === 0 ? "<p>No hay correos.</p>" : mails.map(article).join("\n")}
</main>
</body>
</html>`

export const DevCorreosRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const mailer = yield* Mailer
    const kept = settings.environment === "development" ? mailer.kept : Option.none()
    const handler = Option.match(kept, {
      onNone: () =>
        Effect.succeed(HttpServerResponse.text("No encontrado", { status: 404, headers: NO_STORE })),
      onSome: (list) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.map(list, (mails) =>
            new URL(request.url, "http://panel").searchParams.get("formato") === "json"
              ? HttpServerResponse.unsafeJson(mails, { headers: NO_STORE })
              : HttpServerResponse.html(page(mails)).pipe(
                  HttpServerResponse.setHeaders({
                    ...NO_STORE,
                    "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
                    "x-content-type-options": "nosniff"
                  })
                )
          )
        )
    })
    yield* router.get(DEV_MAILBOX_PATH, handler)
  })
)
