/**
 * Payment links: create (idempotent per merchant and key), list with SPEC's filters, get,
 * cancel and simulate. Every query is scoped by merchant and mode.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { type Caller, Conflict, Forbidden, type Links, NotFound } from "@switch/api"
import { LinkMachine } from "@switch/core"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { Settings } from "../Config.js"
import * as LinksRepo from "../platform/LinksRepo.js"
import { snapshot } from "../platform/LinksRepo.js"
import { markPaid } from "../platform/PaymentRecorder.js"
import { Settlements } from "../platform/Settlements.js"
import { isUuid } from "../platform/Uuid.js"
import { type Created, type CreateError, CreateLink, requireMerchant } from "./CreateLink.js"
import type { LinkFilters } from "./LinkFilters.js"
import { LINK_COLUMNS, type LinkRow, toView } from "./LinkView.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export type { Created, CreateError }

export class LinksService extends Context.Tag("@switch/server/LinksService")<
  LinksService,
  {
    /** Creates a link (CreateLink.ts): 201, or 200 replaying an idempotency key's link. */
    readonly create: (caller: Caller, body: unknown) => Effect.Effect<Created, CreateError>
    readonly list: (caller: Caller, filters: LinkFilters) => Effect.Effect<ReadonlyArray<Links.Link>>
    /** How many links match the list's filters, paging aside. */
    readonly total: (caller: Caller, filters: LinkFilters) => Effect.Effect<number>
    readonly get: (caller: Caller, id: string) => Effect.Effect<Links.Link, NotFound>
    readonly cancel: (
      caller: Caller,
      id: string
    ) => Effect.Effect<{ id: string; estado: "cancelado" }, NotFound | Conflict>
    /** Simulates a test link's outcome; `body` is the decoded `SimularLink` payload. */
    readonly simulate: (
      caller: Caller,
      id: string,
      body: typeof Links.SimularBody.Type
    ) => Effect.Effect<
      { id: string; estado: LinkMachine.LinkState; resultado: string; simulado: true },
      Forbidden | NotFound | Conflict
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
    const { create } = yield* CreateLink
    const columns = LINK_COLUMNS.join(", ")

    const view = (caller: Caller, row: LinkRow, at: Date, devuelto = 0) =>
      Effect.sync(() =>
        toView(row, { baseUrl: settings.baseUrl, comercio: caller.codigo, now: at, devuelto })
      )

    /** What went back of each paid link among `rows` (one query for the page). */
    const devueltos = (rows: ReadonlyArray<LinkRow>) =>
      LinksRepo.devueltos(rows.filter((r) => r.estado === "pagado").map((r) => r.id)).pipe(
        Effect.provideService(PgClient.PgClient, sql)
      )

    const findOwn = (caller: Caller, id: string) =>
      isUuid(id)
        ? Effect.map(
            LinksRepo.ownById<LinkRow>(caller, id, columns).pipe(
              Effect.provideService(PgClient.PgClient, sql)
            ),
            (rows) => Option.fromNullable(rows[0])
          )
        : Effect.succeed(Option.none<LinkRow>())

    const merchantOf = (caller: Caller) =>
      requireMerchant(caller).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    const list = (caller: Caller, f: LinkFilters) =>
      Effect.gen(function* () {
        // Only the key's own mode is visible: asking for the other mode gives an empty list.
        if (f.mode !== null && f.mode !== caller.mode) return []
        const at = yield* now
        const rows = yield* LinksRepo.list<LinkRow>(caller, f, at, columns).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
        const back = yield* devueltos(rows)
        return yield* Effect.forEach(rows, (row) => view(caller, row, at, back.get(row.id) ?? 0))
      }).pipe(Effect.orDie)

    const total = (caller: Caller, f: LinkFilters) =>
      Effect.gen(function* () {
        if (f.mode !== null && f.mode !== caller.mode) return 0
        return yield* LinksRepo.count(caller, f, yield* now).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
      }).pipe(Effect.orDie)

    const get = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        const back = yield* devueltos([row.value])
        return yield* view(caller, row.value, yield* now, back.get(row.value.id) ?? 0)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** Applies a machine event to an own link with a conditional update on its current state. */
    const apply = (caller: Caller, id: string, event: LinkMachine.LinkEvent) =>
      Effect.gen(function* () {
        const at = yield* now
        const row = yield* findOwn(caller, id)
        if (Option.isNone(row)) return yield* Effect.fail(new NotFound())
        const merchant = yield* merchantOf(caller)
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

    const simulate = (caller: Caller, id: string, body: typeof Links.SimularBody.Type) =>
      Effect.gen(function* () {
        const { row, at, transition } = yield* apply(caller, id, LinkMachine.LinkEvent.Simular(body))
        if (Either.isLeft(transition)) return yield* Effect.fail(simulateRefusal(transition.left, row))
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

    return { create, list, total, get, cancel, simulate, expireDue }
  })
)

/** The state to report in a refusal: the refusal's own, else the row's. */
const refusalEstado = (refusal: LinkMachine.Refusal, row: LinkRow): string =>
  "estado" in refusal ? refusal.estado : row.estado

/**
 * A simulation the machine refuses, as SPEC answers it: a live link or a suspended merchant is
 * `403`; any other refusal is `409 no_simulable` with the state the link is in.
 */
export const simulateRefusal = (refusal: LinkMachine.Refusal, row: LinkRow): Forbidden | Conflict => {
  const noSimulable = () => new Conflict({ error: "no_simulable", estado: refusalEstado(refusal, row) })
  return LinkMachine.Refusal.$match(refusal, {
    SoloModoPrueba: () => new Forbidden({ error: "solo_modo_prueba" }),
    ComercioSuspendido: () => new Forbidden({ error: "comercio_suspendido" }),
    NoSimulable: noSimulable,
    NoCancelable: noSimulable,
    LinkExpirado: noSimulable,
    TarjetaNoDisponible: noSimulable,
    NoAplica: noSimulable
  })
}
