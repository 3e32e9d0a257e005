/**
 * The simulated card processor's HTTP face (node:http, no framework).
 *
 * Processor routes (JSON, amounts in integer cents as `monto`; `authorization: Bearer <clave>`
 * when the simulator has a `clave`):
 *   POST /v1/cargos               {cargo_id, link_id, monto, url_retorno, url_callback, expira_en}
 *                                 → {cargo_id, url_formulario, expira_en}; the same cargo_id opens one form
 *   GET  /v1/cargos/:id           → {cargo_id, estado, referencia, monto}; 404 when never opened
 *   POST /v1/cargos/:id/cerrar    the same answer, after closing a form still open
 *   GET  /v1/cierres/:dia         → {dia, estado: "cerrado", creditos: [{cargo_id, referencia, monto}]}
 *                                   or {dia, estado: "pendiente"} before the close has run
 *
 * The hosted form, where the payer's browser goes (the service never sees card data):
 *   GET  /formulario/:id          the card form (number, expiry, security code) with the total
 *   POST /formulario/:id          pays; then the browser goes back to `url_retorno` (303)
 *
 * Callbacks to `url_callback`: `{id, evento, cargo_id, referencia, monto, creado_en}` signed with
 * `x-card-signature` (@switch/core CardSignature); retried up to 5 times until a 2xx.
 *
 * Admin: `GET /admin/estado`, `PATCH /admin/config` ({relojDesfaseMs, omitirDelCierre,
 * cierreTrasMs, fallarAperturas}), `POST /admin/cierres/:dia` (run the close now), `POST /admin/reiniciar`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { CardSignature } from "@switch/core"
import { type Callback, type Cargo, type Config, Processor } from "./Processor.js"

export interface CardSim {
  readonly url: string
  readonly port: number
  readonly processor: Processor
  /** Sends a callback now (tests replay and forge with it); answers the receiver's status. */
  readonly send: (callback: Callback, url: string) => Promise<number>
  readonly close: () => Promise<void>
}

export interface Options {
  readonly port?: number
  readonly host?: string
  /** The secret shared with the service: signs callbacks and, when set, is asked of callers. */
  readonly clave: string
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  if (res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** `back`: where the form's answer redirects the browser (the service), which form-action must allow. */
const html = (res: ServerResponse, status: number, body: string, back?: string) => {
  let origin = ""
  try {
    origin = back === undefined ? "" : ` ${new URL(back).origin}`
  } catch {
    origin = ""
  }
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${origin}`,
    "cache-control": "no-store"
  })
  res.end(body)
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", () => resolve(""))
  })

const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  try {
    const parsed: unknown = JSON.parse((await readBody(req)) || "{}")
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

const bolivares = (cents: number) =>
  `Bs ${Math.floor(cents / 100).toLocaleString("es-VE")},${String(cents % 100).padStart(2, "0")}`

const view = (cargo: Cargo) => ({
  cargo_id: cargo.cargo_id,
  estado: cargo.estado,
  referencia: cargo.referencia,
  monto: cargo.monto
})

const page = (title: string, body: string) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.5rem;width:100%;min-height:44px;font-size:1rem;background:#14532d;color:#fff;border:0;border-radius:6px}
a{color:#14532d}</style></head><body><main>${body}</main></body></html>`

const formPage = (cargo: Cargo) =>
  page(
    "Pago con tarjeta",
    `<h1>Pago con tarjeta</h1>
<p>Procesador de tarjetas (simulado). Total a pagar: <strong id="total">${bolivares(cargo.monto)}</strong></p>
<form method="post" action="/formulario/${encodeURIComponent(cargo.cargo_id)}">
<label for="numero">Número de tarjeta</label>
<input id="numero" name="numero" inputmode="numeric" autocomplete="cc-number" required>
<label for="vence">Vencimiento (MM/AA)</label>
<input id="vence" name="vence" autocomplete="cc-exp" required>
<label for="cvv">Código de seguridad</label>
<input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">Pagar ${bolivares(cargo.monto)}</button>
</form>
<p><a href="${escapeHtml(cargo.url_retorno)}">Volver sin pagar</a></p>`
  )

const endPage = (title: string, text: string, back: string | null) =>
  page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${back === null ? "" : `<p><a href="${escapeHtml(back)}">Volver al comercio</a></p>`}`
  )

export const startCardSim = async (options: Options): Promise<CardSim> => {
  const processor = new Processor()
  const sockets = new Set<Socket>()

  const send = async (callback: Callback, url: string): Promise<number> => {
    const body = JSON.stringify(callback)
    const t = Math.floor(processor.now().getTime() / 1000)
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [CardSignature.HEADER]: CardSignature.header(options.clave, t, body)
        },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000)
      })
      await r.arrayBuffer().catch(() => undefined)
      return r.status
    } catch {
      return 0
    }
  }

  /** Delivers in the background, retrying with a growing pause until a 2xx (5 attempts). */
  const deliver = (callback: Callback, url: string) => {
    void (async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const status = await send(callback, url)
        if (status >= 200 && status < 300) return
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt))
      }
    })()
  }

  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${options.clave}`

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://sim")
    const path = url.pathname
    const method = req.method ?? "GET"

    // Browsers ask for it on the hosted form; nothing to show.
    if (path === "/favicon.ico") {
      res.writeHead(204, { "cache-control": "public, max-age=86400" })
      return res.end()
    }
    let m = /^\/formulario\/([\w-]{1,64})$/.exec(path)
    if (m !== null) {
      const id = m[1] as string
      if (method === "GET") {
        const cargo = processor.consultar(id)
        if (cargo === undefined)
          return html(res, 404, endPage("Formulario no encontrado", "Este pago no existe.", null))
        if (cargo.estado !== "abierto")
          return html(
            res,
            410,
            endPage("Formulario no disponible", "Este formulario venció o ya fue usado.", cargo.url_retorno)
          )
        return html(res, 200, formPage(cargo), cargo.url_retorno)
      }
      if (method === "POST") {
        const form = new URLSearchParams(await readBody(req))
        const result = processor.pagar(id, form.get("numero") ?? "")
        if (result._tag === "NoDisponible") {
          const cargo = processor.consultar(id)
          return html(
            res,
            410,
            endPage(
              "Formulario no disponible",
              "Este formulario venció o ya fue usado.",
              cargo?.url_retorno ?? null
            )
          )
        }
        if (result.callback !== null) deliver(result.callback, result.cargo.url_callback)
        res.writeHead(303, { location: result.cargo.url_retorno, "cache-control": "no-store" })
        return res.end()
      }
      return json(res, 405, { error: "metodo_no_permitido" })
    }

    if (path.startsWith("/v1/")) {
      if (!authorized(req)) return json(res, 401, { error: "no_autorizado" })
      if (path === "/v1/cargos" && method === "POST") {
        const b = await readJson(req)
        if (processor.config.fallarAperturas > 0) {
          processor.config.fallarAperturas--
          return json(res, 503, { error: "no_disponible" })
        }
        const expira = typeof b.expira_en === "string" ? new Date(b.expira_en) : new Date(Number.NaN)
        if (
          typeof b.cargo_id !== "string" ||
          !/^[\w-]{1,64}$/.test(b.cargo_id) ||
          typeof b.link_id !== "string" ||
          typeof b.monto !== "number" ||
          !Number.isInteger(b.monto) ||
          b.monto < 500 ||
          typeof b.url_retorno !== "string" ||
          typeof b.url_callback !== "string" ||
          Number.isNaN(expira.getTime())
        )
          return json(res, 400, { error: "solicitud_invalida" })
        const cargo = processor.abrir({
          cargo_id: b.cargo_id,
          link_id: b.link_id,
          monto: b.monto,
          url_retorno: b.url_retorno,
          url_callback: b.url_callback,
          expira_en: expira
        })
        const host = req.headers.host ?? "127.0.0.1"
        return json(res, 200, {
          cargo_id: cargo.cargo_id,
          url_formulario: `http://${host}/formulario/${cargo.cargo_id}`,
          expira_en: cargo.expira_en.toISOString()
        })
      }
      m = /^\/v1\/cargos\/([\w-]{1,64})(\/cerrar)?$/.exec(path)
      if (m !== null) {
        const id = m[1] as string
        const cerrar = m[2] !== undefined
        if (cerrar ? method !== "POST" : method !== "GET")
          return json(res, 405, { error: "metodo_no_permitido" })
        const cargo = cerrar ? processor.cerrar(id) : processor.consultar(id)
        return cargo === undefined ? json(res, 404, { error: "no_existe" }) : json(res, 200, view(cargo))
      }
      m = /^\/v1\/cierres\/(\d{4}-\d{2}-\d{2})$/.exec(path)
      if (m !== null && method === "GET") {
        const dia = m[1] as string
        const creditos = processor.cierre(dia)
        return json(
          res,
          200,
          creditos === null ? { dia, estado: "pendiente" } : { dia, estado: "cerrado", creditos }
        )
      }
      return json(res, 404, { error: "no_existe" })
    }

    if (path === "/admin/estado" && method === "GET")
      return json(res, 200, {
        cargos: [...processor.cargos.values()].map(view),
        callbacks: processor.callbacksEnviados,
        config: processor.config
      })
    if (path === "/admin/config" && method === "PATCH") {
      const b = (await readJson(req)) as Partial<Config>
      processor.config = { ...processor.config, ...b }
      return json(res, 200, processor.config)
    }
    m = /^\/admin\/cierres\/(\d{4}-\d{2}-\d{2})$/.exec(path)
    if (m !== null && method === "POST") {
      const dia = m[1] as string
      return json(res, 200, { dia, estado: "cerrado", creditos: processor.cierre(dia, true) ?? [] })
    }
    if (path === "/admin/reiniciar" && method === "POST") {
      processor.reiniciar()
      return json(res, 200, { ok: true })
    }
    return json(res, 404, { error: "no_existe" })
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => json(res, 500, { error: "error_interno" }))
  })
  server.on("connection", (s: Socket) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const host = options.host ?? "127.0.0.1"
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    processor,
    send,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
