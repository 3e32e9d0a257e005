/**
 * Public receipt verification (20 per minute per IP, counting every query) and the merchant's
 * transactions. Verification never returns payer data; the bank reference shows its last 4.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { CurrentCaller, Recibos, SwitchApi, ValidationError } from "@switch/api"
import { BankCalendar, Fees, Money, RateLimit, ReceiptCode, Venezuela } from "@switch/core"
import { Effect, Option, Stream } from "effect"
import { Settings } from "../Config.js"
import { clientIp, tooMany } from "../http/Auth.js"
import { parseCursor } from "../http/Page.js"
import { json } from "../http/Respond.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import {
  CSV_HEADER,
  csvLine,
  parseTxnFilters,
  parseTxnOrden,
  TXN_COLUMNS,
  TXN_ORDER_BY,
  type TxnRow,
  toTransaccion,
  txnWhere
} from "./TransaccionesQuery.js"

interface VerifiedRow {
  readonly monto: number
  readonly propina: number
  readonly moneda: string
  readonly mode: "test" | "live"
  readonly estado: string
  readonly codigo_verificacion: string
  readonly referencia_banco: string | null
  readonly liquidada_at: Date | null
  readonly created_at: Date
  readonly verificaciones: number
  readonly primera_verificacion: Date
  readonly comercio: string
  readonly concepto: string | null
  readonly referencia_externa: string | null
}

/**
 * SPEC: "masked, last 4 digits only". A reference without digits (a simulated test payment's
 * `SIMULADO`) has none to show: null.
 */
const mask = (reference: string | null) => {
  const last = reference === null ? "" : Venezuela.ultimos4(reference)
  return last === "" ? null : `****${last}`
}

const notFound = () =>
  new Recibos.CodigoNoEncontrado({
    error: "no_encontrado",
    valido: false,
    estado: "no_encontrado",
    mensaje: "No existe un comprobante con ese código."
  })

export const RecibosApiLive = HttpApiBuilder.group(SwitchApi, "recibos", (handlers) =>
  Effect.gen(function* () {
    const pg = yield* PgClient.PgClient
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    const policy: RateLimit.Policy = { ...RateLimit.VERIFICACION, limit: settings.verificarPorMinuto }
    return handlers.handle("verificar", ({ path }) =>
      Effect.gen(function* () {
        const decision = yield* limiter.hit(policy, yield* clientIp)
        if (!decision.allowed) return yield* Effect.fail(tooMany(decision.retryAfterSeconds))
        const code = ReceiptCode.parse(path.codigo)
        if (Option.isNone(code)) return yield* Effect.fail(notFound())
        const rows = yield* LinksRepo.verifyReceipt<VerifiedRow>(code.value).pipe(
          Effect.provideService(PgClient.PgClient, pg)
        )
        const row = rows[0]
        if (row === undefined) return yield* Effect.fail(notFound())
        const paidAt = row.liquidada_at ?? row.created_at
        const prueba = row.mode === "test"
        return json({
          valido: true,
          estado: row.estado === "LIQUIDADA" ? "pagado" : row.estado.toLowerCase(),
          codigo: row.codigo_verificacion,
          monto: Money.toNumber(Fees.total(Money.Cents(row.monto), Money.Cents(row.propina))),
          moneda: row.moneda,
          comercio: row.comercio,
          fecha_hora: paidAt.toISOString(),
          fecha_hora_caracas: BankCalendar.formatCaracas(paidAt),
          referencia_bancaria: mask(row.referencia_banco),
          prueba,
          mensaje: prueba
            ? "Comprobante auténtico de un pago de PRUEBA: no movió dinero."
            : "Comprobante auténtico: el pago fue confirmado por el banco.",
          concepto: row.concepto,
          referencia_externa: row.referencia_externa,
          verificaciones: row.verificaciones,
          primera_verificacion: row.primera_verificacion.toISOString(),
          primera_verificacion_caracas: BankCalendar.formatCaracas(row.primera_verificacion)
        })
      }).pipe(Effect.catchTag("SqlError", Effect.die))
    )
  })
)

const page = (text: string | undefined, name: string, fallback: number, max: number) => {
  if (text === undefined || text === "") return Effect.succeed(fallback)
  const n = Number(text)
  return /^\d+$/.test(text) && n <= max && (name === "offset" || n >= 1)
    ? Effect.succeed(n)
    : Effect.fail(
        new ValidationError({
          parametro: name,
          detail: `${name} debe ser un entero entre ${name === "offset" ? 0 : 1} y ${max}`
        })
      )
}

export const TransaccionesApiLive = HttpApiBuilder.group(SwitchApi, "transacciones", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const limit = yield* page(urlParams.limit, "limit", 50, 200)
          const offset = yield* page(urlParams.offset, "offset", 0, 1_000_000)
          const after = yield* parseCursor(urlParams.starting_after)
          const filters = yield* parseTxnFilters(urlParams)
          const orden = yield* parseTxnOrden(urlParams.orden, after !== null)
          const rows = yield* sql<TxnRow>`
            select ${TXN_COLUMNS(sql)}
            from transacciones where ${txnWhere(sql, caller, filters)}
            ${
              after === null
                ? sql``
                : sql`and (created_at, id) < (select created_at, id from transacciones
                    where id = ${after} and comercio_id = ${caller.comercioId} and mode = ${caller.mode})`
            }
            order by ${sql.literal(TXN_ORDER_BY[orden])} limit ${limit} offset ${offset}`
          return json(rows.map(toTransaccion))
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("total", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const filters = yield* parseTxnFilters(urlParams)
          const rows = yield* sql<{ n: number }>`
            select count(*)::int as n from transacciones where ${txnWhere(sql, caller, filters)}`
          return json({ total: rows[0]?.n ?? 0 })
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("exportar", ({ urlParams }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const filters = yield* parseTxnFilters(urlParams)
          // A cursor (128 rows a read) feeds the answer as the client takes it: any size, little memory.
          const rows = sql<TxnRow>`
            select ${TXN_COLUMNS(sql)}
            from transacciones where ${txnWhere(sql, caller, filters)}
            order by created_at desc, id desc`.stream.pipe(Stream.map(csvLine), Stream.orDie)
          const body = Stream.concat(Stream.succeed(`\ufeff${CSV_HEADER}`), rows).pipe(Stream.encodeText)
          return HttpServerResponse.stream(body, {
            contentType: "text/csv; charset=utf-8",
            headers: {
              "content-disposition": `attachment; filename="transacciones-${caller.mode}.csv"`,
              "cache-control": "no-store"
            }
          })
        })
      )
  })
)
