/**
 * `GET /estado` and `GET /estado.json` (public): how immediate-debit collections are doing,
 * from the real (live) outcomes of recent payment attempts. A business rejection (a wrong code,
 * no funds) means the bank works; a technical one (bank unavailable, technical rejection, no
 * answer) does not. Last 15 minutes: under 10 % technical failures is operational, under 50 %
 * degraded, else down; no attempts is "no recent data". Incidents: the 15-minute windows of
 * the last 7 days that were not operational, merged when consecutive.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { BankCalendar } from "@switch/core"
import { Clock, Effect } from "effect"
import { CSP, INLINE } from "./CheckoutRoutes.js"

/** The current time, from Effect's Clock (tests provide their own). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export type Estado = "operativo" | "degradado" | "caido" | "sin_datos_recientes"

const WINDOW_MIN = 15

export const classify = (total: number, fallos: number): Estado => {
  if (total === 0) return "sin_datos_recientes"
  const rate = fallos / total
  return rate < 0.1 ? "operativo" : rate < 0.5 ? "degradado" : "caido"
}

const FALLO = `(estado in ('DESCONOCIDA', 'ERROR') or motivo_rechazo in ('BANCO_NO_DISPONIBLE', 'RECHAZO_TECNICO'))`

const TEXTO: Record<Estado, string> = {
  operativo: "Operativo",
  degradado: "Con fallas parciales",
  caido: "Caído",
  sin_datos_recientes: "Sin datos recientes"
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

export const StatusPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const snapshot = Effect.gen(function* () {
      const at = yield* now
      const since = new Date(at.getTime() - WINDOW_MIN * 60_000)
      const week = new Date(at.getTime() - 7 * 24 * 3600_000)
      const recent = yield* sql<{ total: number; fallos: number }>`
        select count(*)::int as total, (count(*) filter (where ${sql.unsafe(FALLO)}))::int as fallos
        from intentos_pago where mode = 'live' and estado <> 'ENVIANDO' and actualizado_at > ${since} and actualizado_at <= ${at}`
      const buckets = yield* sql<{ desde: Date; total: number; fallos: number }>`
        select date_bin('15 minutes', actualizado_at, timestamptz '2000-01-01') as desde,
          count(*)::int as total, (count(*) filter (where ${sql.unsafe(FALLO)}))::int as fallos
        from intentos_pago where mode = 'live' and estado <> 'ENVIANDO' and actualizado_at > ${week} and actualizado_at <= ${at}
        group by 1 order by 1`
      const incidentes: Array<{ desde: string; hasta: string; estado: Estado }> = []
      for (const b of buckets) {
        const estado = classify(b.total, b.fallos)
        if (estado === "operativo") continue
        const desde = new Date(b.desde)
        const hasta = new Date(desde.getTime() + WINDOW_MIN * 60_000)
        const prev = incidentes[incidentes.length - 1]
        if (prev !== undefined && prev.hasta === desde.toISOString()) {
          prev.hasta = hasta.toISOString()
          if (estado === "caido") prev.estado = "caido"
        } else incidentes.push({ desde: desde.toISOString(), hasta: hasta.toISOString(), estado })
      }
      const r = recent[0] ?? { total: 0, fallos: 0 }
      // Incidents by bank that operators open and close in the console (issue 32), for 7 days.
      const porBanco = yield* sql<{
        banco: string
        titulo: string
        detalle: string | null
        abierto_at: Date
        cerrado_at: Date | null
      }>`
        select banco, titulo, detalle, abierto_at, cerrado_at from incidentes
        where cerrado_at is null or cerrado_at > ${week} order by abierto_at desc limit 50`
      return {
        servicio: "debito_inmediato",
        estado: classify(r.total, r.fallos),
        actualizado_en: at.toISOString(),
        ventana_minutos: WINDOW_MIN,
        operaciones_recientes: r.total,
        incidentes: incidentes.reverse(),
        incidentes_bancos: porBanco.map((i) => ({
          banco: i.banco,
          titulo: i.titulo,
          detalle: i.detalle,
          abierto_en: i.abierto_at.toISOString(),
          cerrado_en: i.cerrado_at?.toISOString() ?? null,
          activo: i.cerrado_at === null
        }))
      }
    }).pipe(Effect.orDie)

    const json = Effect.map(snapshot, (s) =>
      HttpServerResponse.unsafeJson(s, { headers: { "cache-control": "public, max-age=30" } })
    )
    const page = Effect.map(snapshot, (s) => {
      const items = s.incidentes
        .map(
          (i) =>
            `<li>${TEXTO[i.estado]}: ${BankCalendar.formatCaracas(new Date(i.desde))} a ${BankCalendar.formatCaracas(new Date(i.hasta))}</li>`
        )
        .join("")
      const html = `<!doctype html><html lang="es"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Estado de Switch</title>
<style>${INLINE.css}</style></head><body><main>
<h1>Estado del servicio</h1>
<p>Cobros por débito inmediato: <strong id="estado">${TEXTO[s.estado]}</strong></p>
<p class="ayuda">Calculado con las operaciones reales de los últimos ${WINDOW_MIN} minutos. Actualizado: ${BankCalendar.formatCaracas(new Date(s.actualizado_en))} (hora de Venezuela).</p>
<h2>Incidentes de los últimos 7 días</h2>
${items === "" ? "<p>Sin incidentes.</p>" : `<ul>${items}</ul>`}
<h2>Incidentes por banco</h2>
${
  s.incidentes_bancos.length === 0
    ? "<p>Sin incidentes reportados por el equipo.</p>"
    : `<ul>${s.incidentes_bancos
        .map(
          (i) =>
            `<li>Banco ${escapeHtml(i.banco)}: ${escapeHtml(i.titulo)}${i.detalle === null ? "" : `. ${escapeHtml(i.detalle)}`} (desde ${BankCalendar.formatCaracas(new Date(i.abierto_en))}${i.cerrado_en === null ? ", en curso" : `, resuelto ${BankCalendar.formatCaracas(new Date(i.cerrado_en))}`})</li>`
        )
        .join("")}</ul>`
}
<p><a href="/estado.json">Versión JSON</a></p>
</main></body></html>`
      return HttpServerResponse.text(html, {
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": CSP, "cache-control": "public, max-age=30" }
      })
    })
    // SPEC lists the status routes among the public ones; served at the root and under /switch/v1.
    for (const path of ["/estado.json", "/switch/v1/estado.json"] as const) yield* router.get(path, json)
    for (const path of ["/estado", "/switch/v1/estado"] as const) yield* router.get(path, page)
  })
)
