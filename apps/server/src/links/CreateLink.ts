/**
 * Link creation, `POST /switch/v1/links`: `CreateLink` (LinksService's `create`) and the lane
 * that serves the route straight from node:http (http/Edge.ts) with the same key check, rate
 * limit, body reading and `create` as the HttpApi handler in LinksApi.ts, which still describes
 * the route in the contract and serves it with a query string.
 *
 * Its common case is one database round trip: a cached key whose merchant's count this process
 * holds (http/Auth.ts, platform/RateLimiter.ts) and a link without a split need only the insert,
 * which carries the suspension check. A key lookup, a count claimed from Postgres, a split check
 * or a replay run their queries first.
 *
 * The lane takes the same steps without a fiber of its own: a cached key whose merchant's count
 * this process holds is checked with no effect at all (http/Auth.ts's `makeCachedKeyCheck`),
 * any other key check runs as an effect (synchronously when it needs no I/O, Edge.ts's `run`),
 * and `lane` creates a link without a split as a promise (decode, insert, answer); a split's
 * checks and a replay run as effects. Before this, one fiber per request and its scheduler hops
 * cost about 35 µs of CPU per link.
 *
 * The insert of a new link (platform/LinksRepo.ts, `makeLinkInsert`), with the rows of
 * concurrent creations committed together (Coalesce.ts): one statement, one transaction, one
 * answer per row.
 *
 * A row is not inserted, and its answer is `undefined`, when its merchant is suspended or its
 * idempotency key already names a link (the caller then looks that link up). In a statement
 * with keys, rows go in the order of their merchant and key, so two statements racing for the
 * same keys wait on each other in one order and never deadlock (a lote's items go in the same
 * order, LotesService.ts).
 *
 * Ids are drawn before the insert and are the table's primary key, so no row is ever added
 * twice. A row whose statement failed is looked up by its id before it is inserted again: the
 * statement may have committed before its answer was lost, and then the row is this request's
 * own link, answered as created.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import {
  BadRequest,
  type Caller,
  Conflict,
  Forbidden,
  type Links,
  splitRefusal,
  Unavailable,
  type UnprocessableEntity,
  ValidationError
} from "@switch/api"
import { Fees, LinkRequest, Money, Split, type Validation } from "@switch/core"
import { Context, Effect, Either, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import { keyAgainst, makeAuthenticate, makeCachedKeyCheck, permisoDe } from "../http/Auth.js"
import { Lanes } from "../http/Edge.js"
import { RequestLog } from "../http/RequestLog.js"
import { parseJson } from "../http/Respond.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { findMerchant, type MerchantRow } from "../platform/Merchants.js"
import * as SplitControles from "../platform/SplitControles.js"
import { PgPool } from "../platform/Sql.js"
import { LINK_COLUMNS, type LinkRow, searchable, toView } from "./LinkView.js"

/** Links made through the public API's own routes; the portal and the pages pass their own. */
const API_ORIGEN: LinkRequest.Origen = "api"
/** A link made through a portal session is the portal's (`panel`); through a key, the API's. */
const origenOf = (caller: Caller): LinkRequest.Origen => (caller.sesion === undefined ? API_ORIGEN : "panel")

export const validation = (errors: Validation.FieldErrors) => new ValidationError({ detail: errors })

/** The merchant of a valid key's caller (it exists while the key does). */
export const requireMerchant = (caller: Caller) =>
  Effect.flatMap(findMerchant(caller.comercioId), (m) =>
    Option.match(m, {
      onNone: () => Effect.dieMessage("merchant of a valid key is missing"),
      onSome: Effect.succeed
    })
  )

/** Split checks at creation, with the merchant's facts; the stored form keeps amounts as numbers. */
const checkSplit = (
  raw: ReadonlyArray<unknown>,
  merchant: MerchantRow,
  monto: Money.Cents
): Either.Either<ReadonlyArray<Split.SplitEntry>, BadRequest | UnprocessableEntity> =>
  Either.gen(function* () {
    if (!merchant.split_habilitado) {
      return yield* Either.left(
        new BadRequest({
          error: "split_no_disponible",
          detail: "El reparto no está activo para este comercio."
        })
      )
    }
    const entries = yield* Either.mapLeft(Split.decode(raw), splitRefusal)
    return yield* Either.mapLeft(
      Split.checkAtCreation({
        entries,
        merchant: {
          splitHabilitado: merchant.split_habilitado,
          liquidacionInmediata: merchant.liquidacion_inmediata,
          approvedAccounts: merchant.cuentas_aprobadas
        },
        amount: monto,
        commissionPct: commissionOf(merchant)
      }),
      splitRefusal
    )
  })

const commissionOf = (merchant: MerchantRow) =>
  Fees.commissionPctFor(merchant.comision_bp === null ? null : Money.BasisPoints(merchant.comision_bp))

/** SPEC: "accounts could not be checked; nothing was created". */
const noDisponibleAhora = new Unavailable({
  error: "split_no_disponible_ahora",
  detail:
    "No se pudieron verificar las cuentas del reparto; no se creó nada. Reintente con la misma idempotency_key."
})

/** A created link (201), or the one an idempotency key already made (200). */
export interface Created {
  readonly status: 200 | 201
  readonly link: Links.Link
}

export type CreateError =
  | ValidationError
  | BadRequest
  | UnprocessableEntity
  | Forbidden
  | Conflict
  | Unavailable

/** Runs an effect for the lane: its value, or a rejection with its failure (http/Edge.ts). */
export type RunEffect = <A, E>(effect: Effect.Effect<A, E>) => Promise<A>

/** Link creation for a caller. A failed insert is a defect. */
export class CreateLink extends Context.Tag("@switch/server/CreateLink")<
  CreateLink,
  {
    /** LinksService's `create`. */
    readonly create: (caller: Caller, body: unknown) => Effect.Effect<Created, CreateError>
    /**
     * The same creation for the lane, as a promise: a link without a split is decoded, inserted
     * and answered with no fiber; a split's checks and a replay run through `run`.
     */
    readonly lane: (caller: Caller, body: unknown, run: RunEffect) => Promise<Created>
  }
>() {}

export const CreateLinkLive = Layer.effect(
  CreateLink,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const insert = LinksRepo.makeLinkInsert(yield* PgPool)
    const columns = LINK_COLUMNS.join(", ")
    const merchantOf = (caller: Caller) =>
      requireMerchant(caller).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    /** An idempotency key's link, after the insert found one (or the merchant suspended). */
    const replay = (caller: Caller, key: string | null, at: Date) =>
      Effect.gen(function* () {
        const merchant = yield* merchantOf(caller)
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
        const link = toView(found, { baseUrl: settings.baseUrl, comercio: caller.codigo, now: at })
        return { status: 200 as const, link: { ...link, idempotent_replay: true } }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /**
     * A split's checks, which need the merchant: only split links pay for its queries. The
     * approved accounts, the security controls and the daily cap per beneficiary are read here;
     * when they cannot be read the answer is `503 split_no_disponible_ahora` and nothing is made.
     */
    const checkedSplit = (caller: Caller, raw: ReadonlyArray<unknown>, monto: Money.Cents) =>
      Effect.gen(function* () {
        const merchant = yield* Effect.either(
          merchantOf(caller).pipe(Effect.catchAllDefect(() => Effect.fail(noDisponibleAhora)))
        )
        if (Either.isLeft(merchant)) return yield* Effect.fail(merchant.left)
        const entries = yield* checkSplit(raw, merchant.right, monto)
        const controles = yield* SplitControles.controles({
          comercioId: caller.comercioId,
          mode: caller.mode,
          claves: entries.map((e) => Split.cuentaClave(e.cuenta)),
          tope: merchant.right.tope_beneficiario_diario,
          at: new Date()
        }).pipe(
          Effect.provideService(PgClient.PgClient, sql),
          Effect.catchAllCause(() => Effect.fail(noDisponibleAhora))
        )
        yield* Either.mapLeft(
          Split.checkControlsAtCreation({
            entries,
            amount: monto,
            commissionPct: commissionOf(merchant.right),
            controles
          }),
          splitRefusal
        )
        return raw
      })

    /** Inserts a new link: the stored row's JSON columns, or undefined for a replay (see above). */
    const insertRow = (
      caller: Caller,
      id: string,
      body: LinkRequest.LinkCreate,
      expiresAt: Date,
      split: ReadonlyArray<unknown> | null,
      at: Date
    ) =>
      // The suspension check rides in the insert, so creation is one round trip.
      insert({
        id,
        comercioId: caller.comercioId,
        mode: caller.mode,
        monto: body.monto,
        concepto: body.concepto,
        expiresAt,
        successUrl: body.success_url ?? null,
        failureUrl: body.failure_url ?? null,
        metadata: JSON.stringify(body.metadata ?? {}),
        idempotencyKey: body.idempotency_key ?? null,
        split: split === null ? null : JSON.stringify(split),
        busqueda: searchable(body.concepto),
        createdAt: at,
        origen: origenOf(caller)
      })

    /** The answer of a link just inserted: every other column is known here or is the table's default. */
    const created = (
      caller: Caller,
      id: string,
      body: LinkRequest.LinkCreate,
      expiresAt: Date,
      stored: LinksRepo.Inserted,
      at: Date
    ): Created => {
      // The JSON columns come back as Postgres keeps them (its key order), as every later read
      // shows them.
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
        idempotency_key: body.idempotency_key ?? null,
        origen: origenOf(caller),
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
      return {
        status: 201,
        link: toView(row, { baseUrl: settings.baseUrl, comercio: caller.codigo, now: at })
      }
    }

    const store = (
      caller: Caller,
      body: LinkRequest.LinkCreate,
      expiresAt: Date,
      split: ReadonlyArray<unknown> | null,
      at: Date
    ): Effect.Effect<Created, CreateError> => {
      const id = randomUUID()
      const inserted = insertRow(caller, id, body, expiresAt, split, at)
      return Effect.flatMap(
        Effect.promise(() => inserted),
        (stored): Effect.Effect<Created, CreateError> =>
          stored === undefined
            ? replay(caller, body.idempotency_key ?? null, at)
            : Effect.succeed(created(caller, id, body, expiresAt, stored, at))
      )
    }

    const create = (caller: Caller, input: unknown): Effect.Effect<Created, CreateError> =>
      Effect.suspend(() => {
        const at = new Date()
        const decoded = LinkRequest.decodeLinkCreate(input, at)
        if (Either.isLeft(decoded)) return Effect.fail(validation(decoded.left))
        const { body, expiresAt } = decoded.right
        return body.split === undefined
          ? store(caller, body, expiresAt, null, at)
          : Effect.flatMap(checkedSplit(caller, body.split, body.monto), (split) =>
              store(caller, body, expiresAt, split, at)
            )
      })

    const lane = async (caller: Caller, input: unknown, run: RunEffect): Promise<Created> => {
      const at = new Date()
      const decoded = LinkRequest.decodeLinkCreate(input, at)
      if (Either.isLeft(decoded)) throw validation(decoded.left)
      const { body, expiresAt } = decoded.right
      if (body.split !== undefined) {
        const split = body.split
        return run(
          Effect.flatMap(checkedSplit(caller, split, body.monto), (checked) =>
            store(caller, body, expiresAt, checked, at)
          )
        )
      }
      const id = randomUUID()
      const stored = await insertRow(caller, id, body, expiresAt, null, at)
      return stored === undefined
        ? run(replay(caller, body.idempotency_key ?? null, at))
        : created(caller, id, body, expiresAt, stored, at)
    }

    return { create, lane }
  })
)

/** The route the lane serves: exactly this URL (with a query string, the HttpApi app serves it). */
const LANE_URL = "/switch/v1/links"

/** `POST /switch/v1/links` served as a lane (http/Edge.ts). */
export const CreateLinkLaneLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const lanes = yield* Lanes
    const create = yield* CreateLink
    const authenticate = yield* makeAuthenticate
    const cachedKey = yield* makeCachedKeyCheck
    const log = yield* RequestLog
    // The lane answers for the contract's endpoint, under that endpoint's grant.
    const permiso = permisoDe("POST", LANE_URL)
    yield* lanes.add<never>("POST", LANE_URL, async (request) => {
      const header = request.headers["x-switch-key"]
      const key = typeof header === "string" ? header : ""
      const caller =
        cachedKey(key, permiso) ??
        (await request.run(keyAgainst((given) => authenticate(given, request.client), key, permiso)))
      // Into the merchant's request log once answered, as the app's requests (http/Auth.ts).
      const at = Date.now()
      request.onAnswered((status, durationMs) =>
        log.record({
          caller,
          method: "POST",
          url: LANE_URL,
          status,
          durationMs,
          requestId: request.requestId,
          at
        })
      )
      const body = parseJson(await request.body())
      if (Either.isLeft(body)) throw body.left
      const { status, link } = await create.lane(caller, body.right, request.run)
      return { status, body: link }
    })
  })
)
