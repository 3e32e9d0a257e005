/**
 * The portal's bulk actions on links (`/switch/v1/acciones-masivas`): up to 5,000 links chosen
 * by the filters of `GET /links` in the session's mode, frozen when the action is made, then
 * cancelled (the open ones) or exported as CSV by a durable job (graphile-worker, task
 * {@link TASK}).
 *
 * The job works in parts of {@link PART} links. Each part's effect (its cancellations, or its CSV
 * lines) commits in one transaction with the action's progress, under a lock on the action's
 * row: a job that runs again after a crash or a restart resumes after the last committed part
 * and never does a part twice. Cancelling is LinkMachine's `pendiente -> cancelado`, a
 * conditional update (LinksRepo's `cancelMany`): a link a payment already took (`cobrando`,
 * `procesando`, `pagado`) is not `pendiente`, so it is skipped with that state as the reason, and
 * a payment that starts after the cancel finds it `cancelado`. A link is never both.
 *
 * Resending (`reenviar`) sends each link's last notice again to the merchant's active webhooks
 * that receive it, through the webhooks' own resend (handed in by Http.ts as {@link Reenviar}).
 * A resend runs inside the part's transaction (@effect/sql's transaction is the fiber's, so the
 * webhooks' own `withTransaction` is a savepoint of it): the deliveries it makes or reopens, and
 * their jobs in graphile-worker's tables, commit with the part's progress or not at all. A part
 * cut by a crash between its resends and its progress is undone whole and runs again: each
 * link's notice is resent at most once per action (accionesMasivasReenvio.test.ts replays one).
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { type AccionesMasivas as Api, type Caller, NotFound, ValidationError } from "@switch/api"
import { Money } from "@switch/core"
import { Effect } from "effect"
import { recordActivity } from "../platform/Activity.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { ACCIONES_ARCHIVO_DAYS } from "../platform/Retention.js"
import { isUuid } from "../platform/Uuid.js"
import { parseLinkFilters } from "./LinkFilters.js"

/** graphile-worker's task name. */
export const TASK = "accion_masiva"
/** Links a part takes: one transaction each. */
export const PART = 500

/** The filters of `GET /links` a bulk action takes (paging and `mode` are not selection). */
const FILTROS = ["estado", "desde", "hasta", "q", "min", "max", "con_propina", "origen", "reembolso"] as const

interface Row {
  readonly id: string
  readonly accion: "cancelar" | "exportar" | "reenviar"
  readonly estado: "en_cola" | "en_curso" | "terminada"
  readonly filtros: Record<string, string>
  readonly total: number
  readonly procesados: number
  readonly hechos: number
  readonly omitidos: Record<string, number>
  readonly created_at: Date
  readonly terminada_at: Date | null
}

const COLUMNS = `id, accion, estado, filtros, cardinality(ids) as total, procesados, hechos, omitidos,
  created_at, terminada_at`

/** Whether an action that ended at `at` is past its CSV's retention (platform/Retention.ts). */
const archivoVencido = (at: Date | null): boolean =>
  at !== null && at.getTime() < Date.now() - ACCIONES_ARCHIVO_DAYS * 86_400_000

export const view = (row: Row): Api.AccionMasiva => ({
  id: row.id,
  accion: row.accion,
  estado: row.estado,
  filtros: row.filtros,
  total: row.total,
  procesados: row.procesados,
  hechos: row.hechos,
  omitidos: row.omitidos,
  // Housekeeping drops the CSV {@link ACCIONES_ARCHIVO_DAYS} days after the action ended.
  archivo:
    row.accion === "exportar" && row.estado === "terminada" && !archivoVencido(row.terminada_at)
      ? `/switch/v1/acciones-masivas/${row.id}/archivo`
      : null,
  created_at: row.created_at.toISOString(),
  terminada_at: row.terminada_at === null ? null : row.terminada_at.toISOString()
})

const invalid = (detail: string) => new ValidationError({ parametro: "filtros", detail })

/** Makes the action: its links chosen now, its job queued in the same transaction. */
export const crear = (caller: Caller, body: typeof Api.AccionMasivaBody.Type) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const filtros = body.filtros ?? {}
    const extra = Object.keys(filtros).filter((k) => !(FILTROS as ReadonlyArray<string>).includes(k))
    if (extra.length > 0)
      return yield* Effect.fail(
        invalid(`filtros admite solo: ${FILTROS.join(", ")} (sobra ${extra.join(", ")})`)
      )
    const parsed = parseLinkFilters(filtros)
    if (parsed._tag === "Left") return yield* Effect.fail(parsed.left)
    const owner = { comercioId: caller.comercioId, mode: caller.mode }
    const at = new Date()
    const chosen = yield* LinksRepo.list<{ id: string }>(
      owner,
      { ...parsed.right, limit: MAX + 1, offset: 0, startingAfter: null },
      at,
      "id"
    )
    if (chosen.length > MAX)
      return yield* Effect.fail(
        invalid("Los filtros eligen más de 5.000 links: acótalos (por fecha, estado...).")
      )
    if (chosen.length === 0) return yield* Effect.fail(invalid("Los filtros no eligen ningún link."))
    // The count the person typed to confirm must still be the count: links made, paid or
    // cancelled since then change what the action would take.
    if (body.confirmar_total !== undefined && body.confirmar_total !== chosen.length)
      return yield* Effect.fail(
        new ValidationError({
          parametro: "confirmar_total",
          detail: `Los filtros eligen ahora ${chosen.length} links, no ${body.confirmar_total}: revisa y confirma de nuevo.`
        })
      )
    const id = randomUUID()
    const rows = yield* sql.withTransaction(
      Effect.gen(function* () {
        const made = yield* sql<Row>`
          insert into acciones_masivas (id, comercio_id, mode, usuario_id, email, accion, filtros, ids)
          values (${id}, ${caller.comercioId}, ${caller.mode}, ${caller.sesion?.usuarioId ?? null},
            ${caller.sesion?.email ?? ""}, ${body.accion}, ${JSON.stringify(filtros)}::jsonb,
            ${chosen.map((l) => l.id)}::uuid[])
          returning ${sql.unsafe(COLUMNS)}`
        yield* sql`select 1 from graphile_worker.add_job(${TASK}, json_build_object('id', ${id}::text),
          max_attempts := 25, job_key := ${`${TASK}:${id}`})`
        return made
      })
    )
    return view(rows[0] as Row)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

const MAX = 5000

/** An action of the caller's merchant and mode. */
export const get = (caller: Caller, id: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    if (!isUuid(id)) return yield* Effect.fail(new NotFound({}))
    const rows = yield* sql<Row>`select ${sql.unsafe(COLUMNS)} from acciones_masivas
      where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`
    const row = rows[0]
    return row === undefined ? yield* Effect.fail(new NotFound({})) : row
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** The CSV of a finished export of the caller's, or not found. */
export const archivo = (caller: Caller, id: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    if (!isUuid(id)) return yield* Effect.fail(new NotFound({}))
    const rows = yield* sql<{
      csv: string | null
      terminada_at: Date
    }>`select csv, terminada_at from acciones_masivas
      where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}
        and accion = 'exportar' and estado = 'terminada'`
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(new NotFound({}))
    if (archivoVencido(row.terminada_at))
      return yield* Effect.fail(
        new NotFound({
          error: "not_found",
          detail: `El archivo de una exportación se guarda ${ACCIONES_ARCHIVO_DAYS} días: vuelve a exportar esos links.`
        })
      )
    return `\ufeff${CSV_HEADER}${row.csv ?? ""}`
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** The export's columns. */
export const CSV_HEADER = "id,estado,monto,concepto,origen,created_at,paid_at\r\n"

const cell = (value: string | null): string => {
  if (value === null) return ""
  // A leading = + - @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

interface LinkPart {
  readonly id: string
  readonly estado_visible: string
  readonly monto: number
  readonly concepto: string | null
  readonly origen: string
  readonly created_at: Date
  readonly paid_at: Date | null
}

const csvLine = (l: LinkPart) =>
  `${[
    l.id,
    l.estado_visible,
    Money.toDecimalString(Money.Cents(Number(l.monto))),
    cell(l.concepto),
    l.origen,
    l.created_at.toISOString(),
    l.paid_at === null ? "" : l.paid_at.toISOString()
  ].join(",")}\r\n`

interface Claimed {
  readonly comercio_id: string
  readonly mode: "test" | "live"
  readonly accion: "cancelar" | "exportar" | "reenviar"
  readonly estado: string
  readonly procesados: number
  readonly part: ReadonlyArray<string>
  readonly total: number
  readonly usuario_id: string | null
  readonly email: string
}

/**
 * Resends a notice of the merchant's to its webhooks: how many deliveries it made or reopened.
 * It must write through the SqlClient of the fiber that calls it (no connection of its own), so
 * its deliveries commit with the part that asked for them.
 */
export type Reenviar = (
  owner: { readonly comercioId: string; readonly mode: "test" | "live" },
  eventoId: string
) => Effect.Effect<number, unknown, never>

/**
 * One part: under the action's row lock, its next links' effect and the progress, committed
 * together. Answers whether links remain.
 */
const runPart = (id: string, reenviar: Reenviar) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<Claimed>`
          select comercio_id, mode, accion, estado, procesados, cardinality(ids) as total, usuario_id, email,
            ids[procesados + 1 : procesados + ${PART}]::text[] as part
          from acciones_masivas where id = ${id} for update`
        const a = rows[0]
        if (a === undefined || a.estado === "terminada") return false
        const owner = { comercioId: a.comercio_id, mode: a.mode }
        const at = new Date()
        if (a.part.length === 0) {
          yield* sql`update acciones_masivas set estado = 'terminada', terminada_at = now() where id = ${id}`
          yield* recordActivity({
            comercioId: a.comercio_id,
            usuarioId: a.usuario_id,
            email: a.email,
            accion: `accion_masiva_terminada`,
            objeto: `/switch/v1/acciones-masivas/${id}`,
            ip: "trabajo",
            resultado: 200
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
          return false
        }
        let hechos = 0
        const omitidos: Record<string, number> = {}
        // Cancelled first, read after: a skipped link's reason is the state that kept it open.
        const cancelled =
          a.accion === "cancelar"
            ? new Set((yield* LinksRepo.cancelMany(owner, a.part, at)).map((r) => r.id))
            : new Set<string>()
        const links = yield* LinksRepo.byIds<LinkPart>(
          owner,
          a.part,
          at,
          "id, monto, concepto, origen, created_at, paid_at"
        )
        if (a.accion === "reenviar") {
          const last = yield* sql<{ link_id: string; id: string }>`
            select distinct on (data->>'link_id') data->>'link_id' as link_id, id from eventos
            where comercio_id = ${a.comercio_id} and mode = ${a.mode} and data->>'link_id' = any(${a.part}::text[])
            order by data->>'link_id', created_at desc, id desc`
          const byLink = new Map(last.map((e) => [e.link_id, e.id]))
          for (const l of links) {
            const evento = byLink.get(l.id)
            const sent =
              evento === undefined ? -1 : yield* reenviar(owner, evento).pipe(Effect.orElseSucceed(() => 0))
            if (sent > 0) hechos += 1
            else {
              const reason = sent < 0 ? "sin_aviso" : "sin_webhook"
              omitidos[reason] = (omitidos[reason] ?? 0) + 1
            }
          }
        } else if (a.accion === "cancelar") {
          hechos = cancelled.size
          for (const l of links)
            if (!cancelled.has(l.id)) omitidos[l.estado_visible] = (omitidos[l.estado_visible] ?? 0) + 1
        } else {
          const order = new Map(a.part.map((linkId, i) => [linkId, i]))
          const sorted = [...links].sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0))
          hechos = sorted.length
          const csv = sorted.map(csvLine).join("")
          yield* sql`update acciones_masivas set csv = coalesce(csv, '') || ${csv} where id = ${id}`
        }
        // A link gone from the merchant's (none is ever deleted) would be skipped as missing.
        const missing = a.part.length - links.length
        if (missing > 0) omitidos.no_encontrado = missing
        yield* sql`
          update acciones_masivas set estado = 'en_curso', procesados = procesados + ${a.part.length},
            hechos = hechos + ${hechos},
            omitidos = (select coalesce(jsonb_object_agg(k, v), '{}') from (
              select k, sum(v::int) as v from (
                select key as k, value as v from jsonb_each_text(omitidos)
                union all select key, value from jsonb_each_text(${JSON.stringify(omitidos)}::jsonb)
              ) both_ group by k) summed)
          where id = ${id}`
        return true
      })
    )
  })

/** The job: its parts until none remains (each part commits on its own). */
export const runAccion = (reenviar: Reenviar) => (payload: Record<string, unknown>) =>
  Effect.gen(function* () {
    const id = String(payload.id ?? "")
    if (!isUuid(id)) return
    let more = true
    while (more) more = yield* runPart(id, reenviar)
  })
