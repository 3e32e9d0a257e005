/**
 * Payment links: create (idempotent per merchant and key), list with SPEC's filters, get,
 * cancel and simulate. Every query is scoped by merchant and mode.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import {
  BadRequest,
  type Caller,
  Conflict,
  Forbidden,
  Links,
  NotFound,
  UnprocessableEntity,
  ValidationError
} from "@switch/api"
import { Fees, LinkMachine, LinkRequest, Money, Split, Validation } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option, Runtime } from "effect"
import { Settings } from "../Config.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { snapshot } from "../platform/LinksRepo.js"
import { findMerchant, type MerchantRow } from "../platform/Merchants.js"
import { markPaid } from "../platform/PaymentRecorder.js"
import { Settlements } from "../platform/Settlements.js"
import { PgPool } from "../platform/Sql.js"
import { isUuid } from "../platform/Uuid.js"
import type { LinkFilters } from "./LinkFilters.js"
import { makeLinkInsert } from "./LinkInsert.js"
import { LINK_COLUMNS, type LinkRow, searchable, toView } from "./LinkView.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** Links made through the public API's own routes; the portal and the pages pass their own. */
const API_ORIGEN: LinkRequest.Origen = "api"

const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })

/** Split checks at creation, with the merchant's facts; the stored form keeps amounts as numbers. */
const checkSplit = (raw: ReadonlyArray<unknown>, merchant: MerchantRow, monto: Money.Cents) =>
  Either.gen(function* () {
    if (!merchant.split_habilitado) {
      return yield* Either.left(
        new BadRequest({
          error: "split_no_disponible",
          detail: "El reparto no está activo para este comercio."
        })
      )
    }
    const entries = yield* Either.mapLeft(Split.decode(raw), (e) => e)
    yield* Either.mapLeft(
      Split.checkAtCreation({
        entries,
        merchant: {
          splitHabilitado: merchant.split_habilitado,
          liquidacionInmediata: merchant.liquidacion_inmediata,
          approvedAccounts: merchant.cuentas_aprobadas
        },
        amount: monto,
        commissionPct: Fees.commissionPctFor(
          merchant.comision_bp === null ? null : Money.BasisPoints(merchant.comision_bp)
        )
      }),
      (e) => e
    )
    return raw
  }).pipe(
    Either.mapLeft((e) => {
      if (e instanceof BadRequest) return e
      // SPEC's 422s: a split over the net after commission, a merchant without immediate settlement.
      if (e.status === 422)
        return new UnprocessableEntity({ error: e.error as UnprocessableEntity["error"], detail: e.detail })
      return new BadRequest({ error: e.error as BadRequest["error"], detail: e.detail })
    })
  )

/** A created link (201), or the one an idempotency key already made (200). */
export interface Created {
  readonly status: 200 | 201
  readonly link: Links.Link
}

export type CreateError = ValidationError | BadRequest | UnprocessableEntity | Forbidden | Conflict

export class LinksService extends Context.Tag("@switch/server/LinksService")<
  LinksService,
  {
    readonly create: (caller: Caller, body: unknown) => Effect.Effect<Created, CreateError>
    /**
     * `create` as a promise, which is how `create` itself runs: a link without a split, not
     * replayed, is created with no fiber at all (link creation's lane, LinksLane.ts, calls this).
     * A split check or a replay runs in the service's own runtime, not the caller's fiber: it
     * carries none of the request's log annotations and is not interrupted with it.
     */
    readonly createNow: (caller: Caller, body: unknown) => Promise<Either.Either<Created, CreateError>>
    readonly list: (caller: Caller, filters: LinkFilters) => Effect.Effect<ReadonlyArray<Links.Link>>
    readonly get: (caller: Caller, id: string) => Effect.Effect<Links.Link, NotFound>
    readonly cancel: (
      caller: Caller,
      id: string
    ) => Effect.Effect<{ id: string; estado: "cancelado" }, NotFound | Conflict>
    readonly simulate: (
      caller: Caller,
      id: string,
      body: unknown
    ) => Effect.Effect<
      { id: string; estado: LinkMachine.LinkState; resultado: string; simulado: true },
      ValidationError | Forbidden | NotFound | Conflict
    >
    /** Moves every open link past its expiry to `expirado`; returns how many. */
    readonly expireDue: Effect.Effect<number>
  }
>() {}

export const LinksServiceLive = Layer.effect(
  LinksService,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const settlements = yield* Settlements
    const insert = makeLinkInsert(yield* PgPool)
    const columns = LINK_COLUMNS.join(", ")
    const run = Runtime.runPromise(yield* Effect.runtime<never>())

    const view = (caller: Caller, row: LinkRow, at: Date) =>
      Effect.sync(() => toView(row, { baseUrl: settings.baseUrl, comercio: caller.codigo, now: at }))

    const findOwn = (caller: Caller, id: string) =>
      isUuid(id)
        ? Effect.map(
            LinksRepo.ownById<LinkRow>(caller, id, columns).pipe(
              Effect.provideService(PgClient.PgClient, sql)
            ),
            (rows) => Option.fromNullable(rows[0])
          )
        : Effect.succeed(Option.none<LinkRow>())

    const requireMerchant = (caller: Caller) =>
      Effect.flatMap(findMerchant(caller.comercioId), (m) =>
        Option.match(m, {
          onNone: () => Effect.dieMessage("merchant of a valid key is missing"),
          onSome: Effect.succeed
        })
      ).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    /** An idempotency key's link, after the insert found one (or the merchant suspended). */
    const replay = (caller: Caller, key: string | null, at: Date) =>
      Effect.gen(function* () {
        const merchant = yield* requireMerchant(caller)
        if (merchant.estado === "suspendido")
          return yield* Effect.fail(new Forbidden({ error: "comercio_suspendido" }))
        const existing = yield* LinksRepo.byIdempotencyKey<LinkRow>(caller.comercioId, key, columns).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
        const found = existing[0]
        if (found === undefined) return yield* Effect.dieMessage("link insert returned nothing")
        if (found.mode !== caller.mode) {
          return yield* Effect.fail(
            new Conflict({ error: "idempotency_key_en_uso", detail: "La clave ya se usó en el otro modo." })
          )
        }
        const link = yield* view(caller, found, at)
        return { status: 200 as const, link: { ...link, idempotent_replay: true } }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** A split's checks, which need the merchant: only split links pay for a fiber here. */
    const checkedSplit = (caller: Caller, raw: ReadonlyArray<unknown>, monto: Money.Cents) =>
      Effect.gen(function* () {
        // Beneficiaries are paid by the simulated settlement of test links only: a live link
        // would settle its whole net to the merchant, so none is taken yet.
        if (caller.mode === "live") {
          return yield* Effect.fail(
            new BadRequest({
              error: "split_no_disponible",
              detail: "El reparto todavía no está disponible en modo live; pruébalo con una llave de prueba."
            })
          )
        }
        return yield* checkSplit(raw, yield* requireMerchant(caller), monto)
      }).pipe(Effect.either)

    const createNow = async (
      caller: Caller,
      input: unknown
    ): Promise<Either.Either<Created, CreateError>> => {
      const at = new Date()
      const decoded = LinkRequest.decodeLinkCreate(input, at)
      if (Either.isLeft(decoded)) return Either.left(validation(decoded.left))
      const { body, expiresAt } = decoded.right
      let split: ReadonlyArray<unknown> | null = null
      if (body.split !== undefined) {
        const checked = await run(checkedSplit(caller, body.split, body.monto))
        if (Either.isLeft(checked)) return Either.left(checked.left)
        split = checked.right
      }
      const id = randomUUID()
      const key = body.idempotency_key ?? null
      // The suspension check rides in the insert, so creation is one round trip (LinkInsert.ts).
      const stored = await insert({
        id,
        comercioId: caller.comercioId,
        mode: caller.mode,
        monto: body.monto,
        concepto: body.concepto,
        expiresAt,
        successUrl: body.success_url ?? null,
        failureUrl: body.failure_url ?? null,
        metadata: JSON.stringify(body.metadata ?? {}),
        idempotencyKey: key,
        split: split === null ? null : JSON.stringify(split),
        busqueda: searchable(body.concepto, id),
        createdAt: at,
        origen: API_ORIGEN
      })
      if (stored === undefined) return run(Effect.either(replay(caller, key, at)))
      // Every other column is known here or is the table's default; the JSON columns come back
      // as Postgres keeps them (its key order), as every later read shows them.
      const row: LinkRow = {
        id,
        mode: caller.mode,
        estado: "pendiente",
        metodo: null,
        monto: body.monto,
        propina: 0,
        moneda: "VES",
        concepto: body.concepto,
        expires_at: expiresAt,
        success_url: body.success_url ?? null,
        failure_url: body.failure_url ?? null,
        metadata: stored.metadata,
        idempotency_key: key,
        origen: API_ORIGEN,
        lote_id: null,
        referencia_externa: null,
        split: stored.split,
        reparto: null,
        txn_id: null,
        codigo_verificacion: null,
        alta_cliente: false,
        paid_at: null,
        created_at: at
      }
      const link = toView(row, { baseUrl: settings.baseUrl, comercio: caller.codigo, now: at })
      return Either.right({ status: 201, link })
    }

    // A failed insert rejects the promise: a defect, as every other SqlError here.
    const create = (caller: Caller, input: unknown) =>
      Effect.flatMap(
        Effect.promise(() => createNow(caller, input)),
        (result): Effect.Effect<Created, CreateError> => result
      )

    const list = (caller: Caller, f: LinkFilters) =>
      Effect.gen(function* () {
        // Only the key's own mode is visible: asking for the other mode gives an empty list.
        if (f.mode !== null && f.mode !== caller.mode) return []
        const at = yield* now
        const rows = yield* LinksRepo.list<LinkRow>(caller, f, at, columns).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
        return yield* Effect.forEach(rows, (row) => view(caller, row, at))
      }).pipe(Effect.orDie)

    const get = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        return yield* view(caller, row.value, yield* now)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** Applies a machine event to an own link with a conditional update on its current state. */
    const apply = (caller: Caller, id: string, event: LinkMachine.LinkEvent) =>
      Effect.gen(function* () {
        const at = yield* now
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        const merchant = yield* requireMerchant(caller)
        const link = {
          ...snapshot(row.value, merchant),
          estado: LinkMachine.visibleState({ estado: row.value.estado, expiresAt: row.value.expires_at }, at)
        }
        const transition = LinkMachine.transition(link, event, at)
        return { row: row.value, at, transition }
      })

    const cancel = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const { row, at, transition } = yield* apply(caller, id, LinkMachine.LinkEvent.Cancelar())
        if (Either.isLeft(transition)) {
          return yield* Effect.fail(
            new Conflict({ error: "no_cancelable", estado: refusalEstado(transition.left, row) })
          )
        }
        const updated = yield* LinksRepo.cancel(row.id, transition.right, at).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
        if (updated.length === 0) {
          // Another request moved it first; report the state it is in now.
          const current = yield* get(caller, id)
          return yield* Effect.fail(new Conflict({ error: "no_cancelable", estado: current.estado }))
        }
        return { id: row.id, estado: "cancelado" as const }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const simulate = (caller: Caller, id: string, input: unknown) =>
      Effect.gen(function* () {
        const body = yield* Either.mapLeft(Validation.decode(Links.SimularBody)(input), validation)
        const { row, at, transition } = yield* apply(caller, id, LinkMachine.LinkEvent.Simular(body))
        if (Either.isLeft(transition)) {
          const refusal = transition.left
          if (refusal._tag === "SoloModoPrueba")
            return yield* Effect.fail(new Forbidden({ error: "solo_modo_prueba" }))
          if (refusal._tag === "ComercioSuspendido")
            return yield* Effect.fail(new Forbidden({ error: "comercio_suspendido" }))
          return yield* Effect.fail(
            new Conflict({ error: "no_simulable", estado: refusalEstado(refusal, row) })
          )
        }
        const t = transition.right
        if (t.to === "pagado") {
          const paid = yield* markPaid({
            linkId: row.id,
            comercioId: caller.comercioId,
            mode: caller.mode,
            from: "pendiente",
            referencia: "SIMULADO",
            metodo: null,
            effects: t.effects,
            paidAt: at
          }).pipe(
            sql.withTransaction,
            Effect.provideService(PgClient.PgClient, sql),
            Effect.provideService(Settings, settings),
            Effect.provideService(Settlements, settlements)
          )
          if (Option.isNone(paid)) {
            const current = yield* get(caller, id)
            return yield* Effect.fail(new Conflict({ error: "no_simulable", estado: current.estado }))
          }
        } else if (t.to === "expirado") {
          const updated = yield* LinksRepo.expireNow(row.id, t, at).pipe(
            Effect.provideService(PgClient.PgClient, sql)
          )
          if (updated.length === 0) {
            const current = yield* get(caller, id)
            return yield* Effect.fail(new Conflict({ error: "no_simulable", estado: current.estado }))
          }
        }
        return { id: row.id, estado: t.to, resultado: body.resultado, simulado: true as const }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const expireDue = Effect.gen(function* () {
      const at = yield* now
      const rows = yield* LinksRepo.expireDue(at).pipe(Effect.provideService(PgClient.PgClient, sql))
      return rows.length
    }).pipe(Effect.orDie)

    return { create, createNow, list, get, cancel, simulate, expireDue }
  })
)

/** The state to report in a refusal: the refusal's own, else the row's. */
const refusalEstado = (refusal: LinkMachine.Refusal, row: LinkRow): string =>
  "estado" in refusal ? refusal.estado : row.estado
