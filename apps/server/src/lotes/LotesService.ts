/**
 * Batches (`lotes`): up to 500 links created all-or-nothing in one transaction, listed and
 * read with a per-state summary, and cancelled in their still-open part. Every query is
 * scoped by merchant and mode; another merchant's or mode's batch is `404`.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { type Caller, Conflict, Forbidden, type Lotes, NotFound, ValidationError } from "@switch/api"
import { type LinkMachine, LinkRequest, type Validation } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import type { Page } from "../http/Page.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { searchable } from "../platform/LinkText.js"
import { isUuid } from "../platform/Uuid.js"
import {
  ITEM_COLUMNS,
  type ItemRow,
  LOTE_COLUMNS,
  type LoteRow,
  type StateStat,
  summarize,
  toLoteView,
  toSummaryView
} from "./LoteView.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** A lote's links are the API's through a key, the portal's (`panel`) through a session (its uploads). */
const origenOf = (caller: Caller): LinkRequest.Origen => (caller.sesion === undefined ? "api" : "panel")

const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })

/** The key an item link is born with when the item brings none: unique by the batch id. */
export const derivedItemKey = (loteId: string, index: number) => `lote:${loteId}:${index}`

/** How many refused items the `item_duplicado` detail names. */
const NAMED_DUPLICATES = 5

/** `409 item_duplicado`, naming the first refused items and their keys. */
const duplicated = (
  refused: ReadonlyArray<{ readonly index: number; readonly key: string }>,
  why: string
) => {
  const named = refused
    .slice(0, NAMED_DUPLICATES)
    .map(({ index, key }) => `items.${index} (${JSON.stringify(key)})`)
    .join(", ")
  const more = refused.length > NAMED_DUPLICATES ? ` y ${refused.length - NAMED_DUPLICATES} más` : ""
  return new Conflict({
    error: "item_duplicado",
    detail: `La idempotency_key ${why}: ${named}${more}. No se creó nada.`
  })
}

export class LotesService extends Context.Tag("@switch/server/LotesService")<
  LotesService,
  {
    readonly create: (
      caller: Caller,
      body: unknown
    ) => Effect.Effect<
      { readonly status: 200 | 201; readonly lote: Lotes.Lote },
      ValidationError | Forbidden | Conflict
    >
    readonly list: (caller: Caller, page: Page) => Effect.Effect<ReadonlyArray<Lotes.LoteSummary>>
    readonly get: (caller: Caller, id: string) => Effect.Effect<Lotes.Lote, NotFound>
    readonly cancel: (caller: Caller, id: string) => Effect.Effect<Lotes.LoteCancelResult, NotFound>
  }
>() {}

export const LotesServiceLive = Layer.effect(
  LotesService,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const loteColumns = sql.unsafe(LOTE_COLUMNS.join(", "))
    const context = (at: Date) => ({ baseUrl: settings.baseUrl, now: at })

    const findOwn = (caller: Caller, id: string) =>
      isUuid(id)
        ? Effect.map(
            sql<LoteRow>`select ${loteColumns} from lotes
              where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`,
            (rows) => Option.fromNullable(rows[0])
          )
        : Effect.succeed(Option.none<LoteRow>())

    const itemsOf = (caller: Caller, loteId: string) =>
      LinksRepo.batchItems<ItemRow>(caller, loteId, ITEM_COLUMNS.join(", ")).pipe(
        Effect.provideService(PgClient.PgClient, sql)
      )

    /** The batch with its items as it stands now. */
    const load = (caller: Caller, row: LoteRow) =>
      Effect.gen(function* () {
        const items = yield* itemsOf(caller, row.id)
        return toLoteView(row, items, context(yield* now))
      })

    const create = (caller: Caller, input: unknown) =>
      Effect.gen(function* () {
        const at = yield* now
        const { body, expiresAt } = yield* Either.mapLeft(LinkRequest.decodeLoteCreate(input, at), validation)
        return yield* insert(caller, body, expiresAt, at)
      })

    /** The batch row and every item link, in one transaction: all of them or none. */
    const insert = (caller: Caller, body: LinkRequest.LoteCreate, expiresAt: Date, at: Date) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const batchKey = body.idempotency_key ?? null
        // The suspension check rides in the insert; a repeated batch key inserts nothing.
        const loteRows = yield* sql<LoteRow>`
          insert into lotes (id, comercio_id, mode, nombre, idempotency_key, expires_at, created_at)
          select ${id}, ${caller.comercioId}, ${caller.mode}, ${body.nombre ?? null}, ${batchKey},
            ${expiresAt}, ${at}
          where not ${LinksRepo.merchantSuspended(sql, caller.comercioId)}
          on conflict (comercio_id, idempotency_key) where idempotency_key is not null do nothing
          returning ${loteColumns}`
        const lote = loteRows[0]
        if (lote === undefined) return yield* existing(caller, batchKey)
        // Failing inside the transaction rolls the batch row back too.
        const repeated = LinkRequest.repeatedItemKeys(body.items)
        if (repeated.length > 0) return yield* Effect.fail(duplicated(repeated, "está repetida en el lote"))

        const ids = body.items.map(() => randomUUID())
        const keys = body.items.map((item, index) => item.idempotency_key ?? derivedItemKey(id, index))
        // One statement for every item; a key already taken (any mode) inserts nothing for it.
        // Keys go in order, as link creation's do (CreateLink.ts), so the two never deadlock.
        const inserted = yield* LinksRepo.insertBatchItems({
          owner: caller,
          loteId: id,
          origen: origenOf(caller),
          expiresAt,
          at,
          items: body.items.map((item, index) => ({
            id: ids[index] as string,
            monto: item.monto,
            concepto: item.concepto,
            clave: keys[index] as string,
            referencia: item.referencia_externa ?? null,
            cliente: item.cliente === undefined ? null : JSON.stringify(item.cliente),
            busqueda: searchable(item.concepto)
          }))
        }).pipe(Effect.provideService(PgClient.PgClient, sql))
        if (inserted.length < body.items.length) {
          const created = new Set(inserted.map((item) => item.lote_pos))
          const refused = keys.flatMap((key, index) => (created.has(index) ? [] : [{ key, index }]))
          // Failing inside the transaction rolls the batch and every item back.
          return yield* Effect.fail(duplicated(refused, "ya se usó en este comercio"))
        }
        // Every item went in as written, so the answer is built without reading the rows back.
        const items = body.items.map(
          (item, index): ItemRow => ({
            id: ids[index] as string,
            lote_pos: index,
            estado: "pendiente",
            monto: item.monto,
            propina: 0,
            concepto: item.concepto,
            expires_at: expiresAt,
            referencia_externa: item.referencia_externa ?? null,
            cliente: item.cliente ?? null,
            idempotency_key: keys[index] as string
          })
        )
        return { status: 201 as const, lote: toLoteView(lote, items, context(at)) }
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))

    /** Why the batch insert did nothing: a suspended merchant, or a batch key already used. */
    const existing = (caller: Caller, batchKey: string | null) =>
      Effect.gen(function* () {
        const merchant = yield* sql<{
          estado: string
        }>`select estado from comercios where id = ${caller.comercioId}`
        if (merchant[0] === undefined) return yield* Effect.dieMessage("merchant of a valid key is missing")
        if (merchant[0].estado === "suspendido")
          return yield* Effect.fail(new Forbidden({ error: "comercio_suspendido" }))
        const rows = yield* sql<LoteRow>`
          select ${loteColumns} from lotes where comercio_id = ${caller.comercioId} and idempotency_key = ${batchKey}`
        const found = rows[0]
        if (found === undefined) return yield* Effect.dieMessage("batch insert returned nothing")
        if (found.mode !== caller.mode) {
          return yield* Effect.fail(
            new Conflict({ error: "idempotency_key_en_uso", detail: "La clave ya se usó en el otro modo." })
          )
        }
        const lote = yield* load(caller, found)
        return { status: 200 as const, lote: { ...lote, idempotent_replay: true } }
      })

    const list = (caller: Caller, page: Page) =>
      Effect.gen(function* () {
        const at = yield* now
        const rows = yield* sql<LoteRow>`
          select ${loteColumns} from lotes where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
          ${
            page.startingAfter === null
              ? sql``
              : sql`and (created_at, id) < (select created_at, id from lotes
                  where id = ${page.startingAfter} and comercio_id = ${caller.comercioId} and mode = ${caller.mode})`
          }
          order by created_at desc, id desc limit ${page.limit} offset ${page.offset}`
        if (rows.length === 0) return []
        const stats = yield* LinksRepo.batchStats(
          caller,
          rows.map((row) => row.id),
          at
        ).pipe(Effect.provideService(PgClient.PgClient, sql))
        const byLote = new Map<string, Array<StateStat>>()
        for (const stat of stats) {
          const list = byLote.get(stat.lote_id) ?? []
          list.push({ ...stat, estado: stat.estado as LinkMachine.LinkState })
          byLote.set(stat.lote_id, list)
        }
        return rows.map((row) => toSummaryView(row, summarize(byLote.get(row.id) ?? [])))
      }).pipe(Effect.orDie)

    const get = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        return yield* load(caller, row.value)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const cancel = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        const at = yield* now
        // Only items still open and unexpired move; one statement, so each moves at most once.
        const cancelled = yield* LinksRepo.cancelBatch(
          { id: row.value.id, comercioId: caller.comercioId, mode: caller.mode },
          at
        ).pipe(Effect.provideService(PgClient.PgClient, sql))
        const lote = yield* load(caller, row.value)
        return { cancelados: cancelled.length, no_cancelables: lote.items.length - cancelled.length, lote }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    return { create, list, get, cancel }
  })
)
