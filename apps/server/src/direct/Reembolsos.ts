/**
 * Refunds of a paid link from the portal (issue 33, SPEC's `link.devuelto` pilot): the owner
 * gives back all or part of what the payer paid, several times up to the total, with a reason.
 *
 * The same rules as `POST /reintegro` (Reintegros.ts), whose checks this reuses: the charge
 * confirmed by the bank (`cobro_no_confirmado_banco`), not settled at once to the merchant
 * (`cobro_ya_liquidado_al_comercio`), no split paying (`cobro_con_split_repartido`; a split not yet
 * paying stops and goes to review in the refund's transaction, RepartoDetenido.ts); no other
 * return of it running (`reintegro_en_curso`) or unclear (`reintegro_intento_ambiguo`); and
 * @switch/core's `Reembolso` keeps the sum of paid refunds within what was paid, decided again
 * under a lock on the charge. Each refund is one `devolucion` operation with its own bank order
 * id (`<id>:1`) and the request's idempotency key; an unclear answer is reconciled by query
 * (Reconcile.ts) and shown to operators, never sent again. Store.apply writes `link.devuelto`
 * in the transaction that records the money reaching the payer.
 *
 * A pilot (SPEC: pilots are off by default, enabled per merchant): while the merchant's
 * `reembolsos_habilitado` is off, `POST` answers `403 reintegro_no_habilitado` and changes
 * nothing; `GET` keeps working and says `habilitado: false`, so the portal explains why the action
 * is missing. The gate holds in test mode too, like the split and card pilots: a merchant tries
 * refunds once an operator turns the pilot on, in both modes.
 */
import { PgClient } from "@effect/sql-pg"
import { type Caller, Direct, Forbidden, NotFound, type Reembolsos, ValidationError } from "@switch/api"
import { Money, Reembolso } from "@switch/core"
import { Effect, Either, Option } from "effect"
import { isUuid } from "../platform/Uuid.js"
import { bankFor, now } from "./Common.js"
import { refresh } from "./Consultas.js"
import { linkChecks, returnsOf } from "./Reintegros.js"
import * as RepartoDetenido from "./RepartoDetenido.js"
import * as Store from "./Store.js"

interface LinkRow {
  readonly id: string
  readonly estado: string
  readonly monto: string
  readonly propina: string
}

/** A payment the bank has not confirmed yet (LinkMachine's in-flight states). */
const EN_CURSO = new Set(["cobrando", "procesando", "revision"])

const money = (cents: number | string) => Money.toNumber(Money.Cents(Number(cents)))

const conflict = (error: typeof Direct.DirectConflictCode.Type, detail: string) =>
  Effect.fail(new Direct.DirectConflict({ error, detail }))

const invalid = (field: string, message: string) =>
  Effect.fail(new ValidationError({ detail: { fieldErrors: { [field]: [message] } } }))

/** Portal refunds carry their key under this prefix, apart from the direct API's UUID keys. */
const keyOf = (key: string) => `reembolso:${key.toLowerCase()}`

/** The caller's link, or `404`. */
const findLink = (caller: Caller, id: string) =>
  Effect.gen(function* () {
    if (!isUuid(id)) return yield* Effect.fail(new NotFound({ detail: "El link no existe." }))
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<LinkRow>`
      select id, estado, monto::text as monto, propina::text as propina from links
      where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`.pipe(Effect.orDie)
    const link = rows[0]
    if (link === undefined) return yield* Effect.fail(new NotFound({ detail: "El link no existe." }))
    return link
  })

/** Is the merchant's refunds pilot on? */
const habilitado = (comercioId: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<{ reembolsos_habilitado: boolean }>`
      select reembolsos_habilitado from comercios where id = ${comercioId}`.pipe(Effect.orDie)
    return rows[0]?.reembolsos_habilitado === true
  })

/** The pilot's refusal: SPEC's `reintegro_no_habilitado`, with why in words. */
const noHabilitado = () =>
  Effect.fail(
    new Forbidden({
      error: "reintegro_no_habilitado",
      detail:
        "Los reembolsos desde el panel son un piloto y aún no están activos para este comercio. " +
        "Pide a Switch que lo active; mientras tanto puedes ver los reembolsos, no hacer uno nuevo."
    })
  )

/** The link's confirmed charge, if it was paid. */
const chargeOf = (linkId: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<Store.OpRow>`
      select * from transacciones where link_id = ${linkId} and operacion = 'cobro' and estado = 'LIQUIDADA'`.pipe(
      Effect.orDie
    )
    return Option.fromNullable(rows[0])
  })

/**
 * The earlier returns of the charge as @switch/core's `Reembolso` reads them. A refund an
 * operator closed without paying (`revisiones_cerradas`, the console's "cerrar sin pagar" of one
 * the bank rejected for a technical reason) moved no money: it counts as rejected.
 */
const anteriores = (rows: ReadonlyArray<Store.OpRow>) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const ids = rows.filter((r) => r.operacion === "devolucion" && r.estado === "RECHAZADA").map((r) => r.id)
    const cerradas =
      ids.length === 0
        ? new Set<string>()
        : new Set(
            (yield* sql<{ objeto_id: string }>`
              select objeto_id from revisiones_cerradas
              where objeto_tipo = 'reembolso' and objeto_id = any(${ids}::text[])`.pipe(Effect.orDie)).map(
              (r) => r.objeto_id
            )
          )
    return rows.map(
      (r): Reembolso.Anterior => ({
        tipo: r.operacion === "reverso" ? "reverso" : "devolucion",
        monto: Money.Cents(Number(r.monto)),
        situacion: cerradas.has(r.id) ? "rechazado" : Reembolso.situacion(r.estado, r.fase, r.motivo_rechazo)
      })
    )
  })

export const view = (row: Store.OpRow): Reembolsos.Reembolso => ({
  id: row.id,
  link_id: String(row.detalle?.link_id ?? ""),
  monto: money(row.monto),
  motivo: String(row.detalle?.motivo ?? row.concepto ?? ""),
  estado: row.estado,
  en_curso: row.fase === "enviando",
  motivo_rechazo: row.estado === "RECHAZADA" ? row.motivo_rechazo : null,
  referencia_banco: row.referencia_banco,
  created_at: row.created_at.toISOString()
})

/** `GET /links/{id}/reembolsos`: what was paid, what went back, what is left, each refund. */
export const listar = (caller: Caller, linkId: string) =>
  Effect.gen(function* () {
    const link = yield* findLink(caller, linkId)
    const pagado = Number(link.monto) + Number(link.propina)
    const piloto = yield* habilitado(caller.comercioId)
    const charge = yield* chargeOf(link.id)
    // Not paid, or not yet confirmed by the bank: nothing to refund yet.
    if (Option.isNone(charge))
      return {
        link_id: link.id,
        habilitado: piloto,
        confirmado: false,
        monto_pagado: EN_CURSO.has(link.estado) ? money(pagado) : 0,
        monto_devuelto: 0,
        disponible: 0,
        data: []
      }
    const returns = yield* Effect.forEach(yield* returnsOf(charge.value.id), refresh)
    const before = yield* anteriores(returns)
    return {
      link_id: link.id,
      habilitado: piloto,
      confirmado: true,
      monto_pagado: money(pagado),
      monto_devuelto: money(Reembolso.devuelto(before)),
      disponible: money(Reembolso.disponible(Money.Cents(pagado), before)),
      data: returns
        .filter((r) => r.operacion === "devolucion")
        .map((r) => view({ ...r, detalle: { link_id: link.id, ...r.detalle } }))
    }
  })

export interface Pedido {
  readonly monto?: number | undefined
  readonly motivo: string
  readonly idempotency_key: string
}

/** A repeated key answers its refund (once its bank call ended), if it is this link's. */
const replay = (caller: Caller, linkId: string, row: Store.OpRow) =>
  row.mode !== caller.mode || row.operacion !== "devolucion" || row.detalle?.link_id !== linkId
    ? conflict("idempotency_key_en_uso", "Esta clave ya se usó en otra operación.")
    : Effect.map(Store.awaitSettled(row), view)

/** The bank's id of the debit that paid the link (its payment attempt), for the refund order. */
const debitIdOf = (linkId: string, charge: Store.OpRow) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const rows = yield* sql<{ id: string }>`
      select id::text as id from intentos_pago where link_id = ${linkId} and estado = 'LIQUIDADA'
      order by created_at desc limit 1`.pipe(Effect.orDie)
    return rows[0]?.id ?? charge.operacion_banco ?? charge.id
  })

/** `POST /links/{id}/reembolsos`. */
export const reembolsar = (caller: Caller, linkId: string, pedido: Pedido) =>
  Effect.gen(function* () {
    if (caller.sesion?.rol !== "propietario")
      return yield* Effect.fail(
        new Forbidden({ error: "rol_no_permitido", detail: "Solo el propietario puede reembolsar." })
      )
    if (!(yield* habilitado(caller.comercioId))) return yield* noHabilitado()
    const key = keyOf(pedido.idempotency_key)
    const earlier = yield* Store.findByKey(caller.comercioId, key)
    if (Option.isSome(earlier)) return yield* replay(caller, linkId, earlier.value)
    const link = yield* findLink(caller, linkId)
    const found = yield* chargeOf(link.id)
    if (link.estado !== "pagado" || Option.isNone(found))
      return yield* conflict(
        "cobro_no_confirmado_banco",
        link.estado === "pendiente" || link.estado === "expirado" || link.estado === "cancelado"
          ? "Este link no tiene un pago que reembolsar."
          : "El banco aún no confirma el pago de este link; podrás reembolsarlo cuando esté pagado."
      )
    const charge = found.value
    yield* linkChecks(charge)
    const pagado = Money.Cents(Number(charge.monto) + Number(charge.propina))
    let monto: Money.Cents | undefined
    if (pedido.monto !== undefined) {
      const read = Money.fromPositiveNumber(pedido.monto)
      if (Either.isLeft(read)) return yield* invalid("monto", Money.issueMessage[read.left])
      monto = read.right
    }
    // Earlier returns refreshed from the bank first; decided again under the charge's lock.
    const before = yield* anteriores(yield* Effect.forEach(yield* returnsOf(charge.id), refresh))
    const decide = (rows: Array<Reembolso.Anterior>) =>
      Reembolso.decidir(pagado, rows, monto ?? Reembolso.disponible(pagado, rows))
    const first = decide(before)
    if (Either.isLeft(first)) return yield* refuse(first.left)
    const id = crypto.randomUUID()
    const at = yield* now
    const sql = yield* PgClient.PgClient
    const inserted = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          // The link first (its split's lock, as the console's "pagar" takes it), then the charge.
          yield* sql`select id from links where id = ${link.id} for update`
          yield* sql`select id from transacciones where id = ${charge.id} for update`
          const decided = decide(yield* anteriores(yield* returnsOf(charge.id)))
          if (Either.isLeft(decided)) return Either.left(decided.left)
          const row = yield* Store.insertNew({
            id,
            caller,
            operacion: "devolucion",
            idempotencyKey: key,
            monto: decided.right,
            concepto: pedido.motivo,
            detalle: {
              origen: "panel",
              link_id: link.id,
              motivo: pedido.motivo,
              usuario: caller.sesion?.email ?? null
            },
            estado: "DESCONOCIDA",
            fase: "enviando",
            operacionBanco: `${id}:1`,
            originalId: charge.id,
            retryNonce: `panel:${id}`,
            at
          })
          // A split not yet paying stops and goes to review with this refund; one paying is 409
          // (and the refund's row goes with the transaction).
          if (Option.isSome(row)) yield* RepartoDetenido.detener(link.id, id)
          return Either.right(row)
        })
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    if (Either.isLeft(inserted)) return yield* refuse(inserted.left)
    if (Option.isNone(inserted.right)) {
      // The same key sent twice at once: the other request's refund is the answer.
      const winner = yield* Store.findByKey(caller.comercioId, key)
      if (Option.isNone(winner))
        return yield* conflict("reintegro_en_curso", "Un reembolso de este cobro está en curso.")
      return yield* replay(caller, linkId, winner.value)
    }
    const row = inserted.right.value
    const bank = yield* bankFor(caller.mode)
    const answer = yield* bank.refund({
      operacionId: `${id}:1`,
      originalId: yield* debitIdOf(link.id, charge),
      monto: Money.Cents(row.monto),
      motivo: pedido.motivo
    })
    return view(yield* Store.apply(row, answer, yield* now))
  })

const refuse = (negativa: Reembolso.Negativa) =>
  negativa.error === "monto_excede_disponible"
    ? invalid("monto", negativa.detail)
    : conflict(negativa.error, negativa.detail)
