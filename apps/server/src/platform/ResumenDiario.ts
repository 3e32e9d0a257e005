/**
 * The opt-in daily summary mail (issue 45). A merchant whose owner turned it on in the portal
 * (`comercios.resumen_diario`, `PUT /switch/v1/resumen-diario`) gets, each Caracas morning from
 * 07:00, yesterday's live-mode summary (the Caracas day): links paid (how many and their total),
 * tips, refunds, settlements credited, and settlements left in review or rejected. A merchant
 * with none of these that day gets nothing.
 *
 * The durable job `resumen_diario` (one job key: one schedule however many processes run)
 * queues its own next run for the next 07:00 by the server's Effect Clock. Each run handles the
 * latest day due (at 06:59 that is the day before yesterday, so a server down at 07:00 catches
 * up when it comes back). Each merchant's day is claimed by a row of `resumenes_diarios` in the
 * transaction that mails it: a second run or process finds the row and sends nothing; a mail
 * server down rolls the row back and the job tries again in 5 minutes.
 *
 * The mail carries the merchant's own figures and a link to the portal: no keys, tokens or payer
 * data.
 */
import type { SqlClient } from "@effect/sql"
import { BankCalendar, Money, ResumenDiario } from "@switch/core"
import { Clock, Effect } from "effect"
import type { ServerSettings } from "../Config.js"
import type { Mailer } from "./Mailer.js"

export const TASK = "resumen_diario"
const KEY = "resumen_diario"
const REINTENTO_MS = 5 * 60_000
/** When a run is due and which day it handles: @switch/core's ResumenDiario (property-tested). */
const { diaDebido, hastaLaProxima } = ResumenDiario

/** Queues the next run in `ms` (`replace`: from a run; `preserve_run_at`: at start-up). */
export const programar = (sql: SqlClient.SqlClient, ms: number, mode: "replace" | "preserve_run_at") =>
  sql`
    select 1 from graphile_worker.add_job(${TASK}, '{}'::json,
      run_at := now() + make_interval(secs => ${ms / 1000}::float8), job_key := ${KEY},
      job_key_mode := ${mode}, max_attempts := 3)`.pipe(Effect.asVoid, Effect.orDie)

/** One merchant's live-mode day; amounts in cents. */
export interface Cifras {
  readonly pagados: number
  readonly pagado_total: number
  readonly propinas: number
  readonly devoluciones: number
  readonly devuelto_total: number
  readonly liquidaciones: number
  readonly liquidado_total: number
  readonly en_revision: number
  readonly rechazadas: number
}

const hayActividad = (c: Cifras) =>
  c.pagados + c.devoluciones + c.liquidaciones + c.en_revision + c.rechazadas > 0

/** `Bs 1.234,56`. */
export const bolivares = (cents: number) =>
  `Bs ${new Intl.NumberFormat("es-VE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Money.toNumber(Money.Cents(cents))
  )}`

/** `2026-11-20` as `20/11/2026`. */
const fecha = (dia: string) => dia.split("-").reverse().join("/")

/** The mail of merchant `comercio`'s day `dia`. */
export const correoDe = (c: Cifras, comercio: { readonly nombre: string }, dia: string, panel: string) => {
  const lineas = [
    `Links pagados: ${c.pagados} por ${bolivares(c.pagado_total)}`,
    `Propinas: ${bolivares(c.propinas)}`,
    `Reembolsos: ${c.devoluciones} por ${bolivares(c.devuelto_total)}`,
    `Liquidaciones acreditadas: ${c.liquidaciones} por ${bolivares(c.liquidado_total)}`
  ]
  if (c.en_revision > 0) lineas.push(`Liquidaciones en revisión: ${c.en_revision}`)
  if (c.rechazadas > 0) lineas.push(`Liquidaciones rechazadas: ${c.rechazadas}`)
  return {
    subject: `Resumen del ${fecha(dia)} de ${comercio.nombre}`,
    text: `Así fue el ${fecha(dia)} (hora de Caracas) de ${comercio.nombre} en modo live:\n\n${lineas.join("\n")}${
      c.en_revision + c.rechazadas > 0
        ? `\n\nVerás el detalle en Liquidaciones (${panel}/liquidaciones).`
        : ""
    }\n\nEl detalle de todo está en el panel: ${panel}\n\nRecibes este resumen porque lo activaste en Configuración; allí mismo lo puedes desactivar.`
  }
}

/** The live-mode figures of merchant `comercioId` between `desde` and `hasta`. */
const cifras = (sql: SqlClient.SqlClient, comercioId: string, desde: Date, hasta: Date) =>
  Effect.map(
    sql<Cifras>`
      select
        (select count(*)::int from links where comercio_id = ${comercioId} and mode = 'live'
          and estado = 'pagado' and paid_at >= ${desde} and paid_at < ${hasta}) as pagados,
        (select coalesce(sum(monto), 0)::float8 from links where comercio_id = ${comercioId}
          and mode = 'live' and estado = 'pagado' and paid_at >= ${desde} and paid_at < ${hasta}) as pagado_total,
        (select coalesce(sum(propina), 0)::float8 from links where comercio_id = ${comercioId}
          and mode = 'live' and estado = 'pagado' and paid_at >= ${desde} and paid_at < ${hasta}) as propinas,
        (select count(*)::int from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'devolucion' and estado = 'LIQUIDADA' and created_at >= ${desde} and created_at < ${hasta}) as devoluciones,
        (select coalesce(sum(monto), 0)::float8 from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'devolucion' and estado = 'LIQUIDADA' and created_at >= ${desde} and created_at < ${hasta}) as devuelto_total,
        (select count(*)::int from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'liquidacion' and estado = 'LIQUIDADA'
          and coalesce(liquidada_at, created_at) >= ${desde} and coalesce(liquidada_at, created_at) < ${hasta}) as liquidaciones,
        (select coalesce(sum(monto), 0)::float8 from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'liquidacion' and estado = 'LIQUIDADA'
          and coalesce(liquidada_at, created_at) >= ${desde} and coalesce(liquidada_at, created_at) < ${hasta}) as liquidado_total,
        (select count(*)::int from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'liquidacion' and estado = 'REVISION' and created_at >= ${desde} and created_at < ${hasta}) as en_revision,
        (select count(*)::int from transacciones where comercio_id = ${comercioId} and mode = 'live'
          and operacion = 'liquidacion' and estado = 'RECHAZADA' and created_at >= ${desde} and created_at < ${hasta}) as rechazadas`,
    (rows) => rows[0] as Cifras
  )

/** Handles merchant `comercioId`'s day `dia` once: claims it, and mails its owners if it had activity. */
const resumir = (
  sql: SqlClient.SqlClient,
  mailer: Mailer["Type"],
  panel: string,
  comercio: { readonly id: string; readonly nombre: string; readonly email: string },
  dia: string
) =>
  sql.withTransaction(
    Effect.gen(function* () {
      const claimed = yield* sql`
        insert into resumenes_diarios (comercio_id, dia, enviado) values (${comercio.id}, ${dia}::date, false)
        on conflict do nothing returning 1`
      if (claimed.length === 0) return false
      const desde = BankCalendar.caracasDayStart(Date.parse(`${dia}T12:00:00Z`))
      const hasta = new Date(desde.getTime() + BankCalendar.DAY_MS)
      const c = yield* cifras(sql, comercio.id, desde, hasta)
      if (!hayActividad(c)) return false
      const duenos = yield* sql<{ email: string }>`
        select email from usuarios where comercio_id = ${comercio.id} and rol = 'propietario' order by created_at`
      const destinos = duenos.length === 0 ? [comercio.email] : duenos.map((d) => d.email)
      const correo = correoDe(c, comercio, dia, panel)
      for (const to of destinos) yield* mailer.send({ to, ...correo })
      yield* sql`update resumenes_diarios set enviado = true where comercio_id = ${comercio.id} and dia = ${dia}::date`
      return true
    })
  )

/** The `resumen_diario` job: the day due for every merchant who opted in, then the next run. */
export const run = (sql: SqlClient.SqlClient, mailer: Mailer["Type"], settings: ServerSettings) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const dia = diaDebido(now)
    const comercios = yield* sql<{ id: string; nombre: string; email: string }>`
      select id, nombre, email from comercios where resumen_diario order by created_at`.pipe(Effect.orDie)
    let fallas = 0
    for (const comercio of comercios)
      yield* resumir(sql, mailer, `${settings.baseUrl}/panel`, comercio, dia).pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.sync(() => {
              fallas++
            }),
            Effect.logWarning("resumen diario no enviado", cause)
          )
        )
      )
    yield* programar(sql, fallas > 0 ? REINTENTO_MS : hastaLaProxima(now), "replace")
  })
