/**
 * What operators do to merchants: approve (KYC done, live enabled; a live key only when asked), edit the
 * money-critical configuration, set the BCV rate, and approve split accounts. Each change
 * locks the merchant row in a transaction, so concurrent edits never lose one another.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { CuentasAprobadas, Instrument, type Validation } from "@switch/core"
import { Context, Effect, Either, Layer, Option, Schema } from "effect"
import { Settings } from "../Config.js"
import { insertKey } from "../http/Keys.js"
import * as AvisosDueno from "../platform/AvisosDueno.js"
import * as TasaBcv from "../platform/TasaBcv.js"
import {
  type AdminRow,
  ApproveBody,
  adminView,
  applyPatch,
  decode,
  PatchBody,
  type PatchFailure,
  settlementAccount,
  TasaBody
} from "./AdminBody.js"

/** An admin failure with its HTTP status and SPEC-shaped body `{error, detail?}`. */
export class AdminError extends Schema.TaggedError<AdminError>()("AdminError", {
  status: Schema.Number,
  error: Schema.String,
  detail: Schema.optional(Schema.Unknown)
}) {
  static notFound = () => new AdminError({ status: 404, error: "not_found" })
  static validation = (detail: Validation.FieldErrors | string) =>
    new AdminError({ status: 400, error: "validation", detail })
  static conflict = (error: string, detail: string) => new AdminError({ status: 409, error, detail })
}

export type AdminView = ReturnType<typeof adminView>

export class AdminService extends Context.Tag("@switch/server/AdminService")<
  AdminService,
  {
    readonly view: (codigo: string) => Effect.Effect<AdminView, AdminError>
    /**
     * KYC tier at least 1, `activo`, the settlement account in the merchant's own name (on record
     * or in the body); approving again changes nothing. A first live key is minted and returned
     * once only when `opciones.emitirLlave` says so (the admin token's explicit ask): otherwise
     * the merchant's owner creates its live keys in the portal, and no operator ever sees one.
     */
    readonly approve: (
      codigo: string,
      body: unknown,
      opciones?: { readonly emitirLlave: boolean }
    ) => Effect.Effect<
      | { codigo: string; estado: "activo"; kyc_tier: number }
      | { codigo: string; estado: "activo"; kyc_tier: number; api_key: string }
      | { codigo: string; estado: "activo"; kyc_tier: number; ya_aprobado: true },
      AdminError
    >
    /** Marks the account reviewed: the new-account caps no longer apply. */
    readonly review: (codigo: string) => Effect.Effect<AdminView, AdminError>
    /** A suspension mails the owners (platform/AvisosDueno.ts), with `opciones.nota` when given. */
    readonly patch: (
      codigo: string,
      body: unknown,
      opciones?: { readonly nota?: string | undefined }
    ) => Effect.Effect<AdminView, AdminError>
    /**
     * Sets the BCV rate, or, more than SWITCH_TASA_SALTO_MAX_PCT away from the one in force,
     * proposes it for a `tesoreria` operator to confirm in the console (issue 41).
     */
    readonly setRate: (body: unknown) => Effect.Effect<
      | { readonly _tag: "Fijada"; readonly tasa: ReturnType<typeof TasaBcv.view> }
      | {
          readonly _tag: "Pendiente"
          readonly propuesta: TasaBcv.Propuesta
          readonly vigente: ReturnType<typeof TasaBcv.view> | null
        },
      AdminError
    >
    readonly currentRate: Effect.Effect<ReturnType<typeof TasaBcv.view>, AdminError>
    /** Adds an approved split account; `added` is false when it was already there. */
    readonly addApprovedAccount: (
      codigo: string,
      body: unknown
    ) => Effect.Effect<
      { added: boolean; cuentas_aprobadas: ReadonlyArray<Instrument.Instrument> },
      AdminError
    >
  }
>() {}

/** A rule that refused a change to a merchant, as the admin API answers it. */
const patchError = (failure: PatchFailure): AdminError => {
  switch (failure._tag) {
    case "Invalid":
      return AdminError.validation(failure.detail)
    case "RequiresApproval":
      return AdminError.conflict(
        "requiere_aprobacion",
        "Un comercio pendiente se activa con POST /admin/v1/comercios/{codigo}/aprobar."
      )
    case "AccountRequired":
      return AdminError.conflict(
        "cuenta_liquidacion_requerida",
        "Un comercio aprobado necesita su cuenta de liquidación a su nombre (cuenta_liquidacion): regístrala antes de aprobarlo; no se puede quitar después."
      )
  }
}

const decodeOr = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Either.mapLeft(decode(schema)(input), AdminError.validation)

export const AdminServiceLive = Layer.effect(
  AdminService,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const settings = yield* Settings
    const provideSql = Effect.provideService(SqlClient.SqlClient, sql)

    /** The merchant row, locked for the rest of the transaction; `not_found` when unknown. */
    const lock = (codigo: string) =>
      Effect.flatMap(sql<AdminRow>`select * from comercios where codigo = ${codigo} for update`, (rows) =>
        Option.match(Option.fromNullable(rows[0]), {
          onNone: () => Effect.fail(AdminError.notFound()),
          onSome: Effect.succeed
        })
      )

    const view = (codigo: string) =>
      Effect.flatMap(sql<AdminRow>`select * from comercios where codigo = ${codigo}`, (rows) =>
        rows[0] === undefined ? Effect.fail(AdminError.notFound()) : Effect.succeed(adminView(rows[0]))
      ).pipe(Effect.catchTag("SqlError", Effect.die))

    const approve = (codigo: string, input: unknown, opciones = { emitirLlave: false }) =>
      Effect.gen(function* () {
        const body = yield* decodeOr(ApproveBody, input)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const row = yield* lock(codigo)
            // Approving never lifts a suspension by the way: that is an explicit `estado` change.
            if (row.estado === "suspendido") {
              return yield* Effect.fail(
                AdminError.conflict(
                  "comercio_suspendido",
                  "El comercio está suspendido; reactívalo con PATCH estado activo antes de aprobarlo."
                )
              )
            }
            // Approved already: the same state, and no second live key (the first was shown once).
            if (row.aprobado_at !== null) {
              return {
                codigo: row.codigo,
                estado: "activo" as const,
                kyc_tier: row.kyc_tier,
                ya_aprobado: true as const
              }
            }
            const cuenta = yield* Either.mapLeft(settlementAccount(row, body.cuenta_liquidacion), patchError)
            // KYC done and live enabled; the new-account caps stay until `revisar`.
            const rows = yield* sql<{ kyc_tier: number }>`
              update comercios set estado = 'activo', kyc_tier = greatest(kyc_tier, 1), aprobado_at = now(),
                cuenta_liquidacion = ${sql.json(cuenta)}
              where id = ${row.id} returning kyc_tier`
            yield* AvisosDueno.encolar(sql, row.id, { tipo: "aprobado" })
            const approved = {
              codigo: row.codigo,
              estado: "activo" as const,
              kyc_tier: rows[0]?.kyc_tier ?? 1
            }
            if (!opciones.emitirLlave) return approved
            const { key } = yield* insertKey(row.id, "aprobacion", "live").pipe(provideSql)
            return { ...approved, api_key: key }
          })
        )
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** The account review: lifts the new-account caps of live money. Idempotent. */
    const review = (codigo: string) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const row = yield* lock(codigo)
            yield* sql`update comercios set revisado = true where id = ${row.id}`
            return adminView({ ...row, revisado: true })
          })
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))

    const patch = (codigo: string, input: unknown, opciones: { readonly nota?: string | undefined } = {}) =>
      Effect.gen(function* () {
        const body = yield* decodeOr(PatchBody, input)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const row = yield* lock(codigo)
            const next = yield* Either.mapLeft(applyPatch(row, body), patchError)
            const json = <A>(value: A | null) => (value === null ? null : sql.json(value))
            const rows = yield* sql<AdminRow>`
              update comercios set
                estado = ${next.estado},
                comision_bp = ${next.comision_bp},
                liquidacion_inmediata = ${next.liquidacion_inmediata},
                pagar_habilitado = ${next.pagar_habilitado},
                split_habilitado = ${next.split_habilitado},
                tarjeta_habilitada = ${next.tarjeta_habilitada},
                recargo_tarjeta_bp = ${next.recargo_tarjeta_bp},
                reembolsos_habilitado = ${next.reembolsos_habilitado},
                propina_max_bp = ${next.propina_max_bp},
                monto_min = ${json(next.monto_min)},
                monto_max = ${json(next.monto_max)},
                max_diario = ${json(next.max_diario)},
                tope_diario = ${json(next.tope_diario)},
                tope_acumulado = ${json(next.tope_acumulado)},
                tope_beneficiario_diario = ${next.tope_beneficiario_diario},
                cuenta_liquidacion = ${json(next.cuenta_liquidacion)}
              where id = ${row.id} returning *`
            const updated = rows[0]
            if (updated === undefined) return yield* Effect.dieMessage("merchant update returned nothing")
            if (row.estado !== "suspendido" && next.estado === "suspendido")
              yield* AvisosDueno.encolar(sql, row.id, { tipo: "suspendido", nota: opciones.nota })
            return adminView(updated)
          })
        )
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    const setRate = (input: unknown) =>
      Effect.gen(function* () {
        const body = yield* decodeOr(TasaBody, input)
        const done = yield* TasaBcv.proponer(
          body.ves_por_usd,
          { fuente: "token", operadorId: null, actor: "token_admin" },
          settings.tasaSaltoMaxPct ?? TasaBcv.SALTO_MAX_PCT
        ).pipe(provideSql)
        if (done._tag === "Fijada") return { _tag: "Fijada" as const, tasa: TasaBcv.view(done.tasa) }
        const vigente = yield* TasaBcv.currentRate.pipe(provideSql)
        return {
          _tag: "Pendiente" as const,
          propuesta: done.propuesta,
          vigente: Option.match(vigente, { onNone: () => null, onSome: TasaBcv.view })
        }
      })

    const currentRate = Effect.flatMap(TasaBcv.currentRate.pipe(provideSql), (tasa) =>
      Option.match(tasa, {
        onNone: () =>
          Effect.fail(
            new AdminError({ status: 404, error: "not_found", detail: "No hay tasa BCV registrada." })
          ),
        onSome: (t) => Effect.succeed(TasaBcv.view(t))
      })
    )

    const addApprovedAccount = (codigo: string, input: unknown) =>
      Effect.gen(function* () {
        const raw = yield* decodeOr(Instrument.Instrument, input)
        const cuenta = yield* Either.mapLeft(Instrument.check("", raw), AdminError.validation)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const row = yield* lock(codigo)
            // The portal's rule (@switch/core CuentasAprobadas.add): the same account under
            // another holder than a settlement account or an approved one is refused.
            const known = yield* sql<{ cuenta_liquidacion: Instrument.Instrument }>`
              select cuenta_liquidacion from comercios
              where cuenta_liquidacion->>'valor' = ${cuenta.valor} and cuenta_liquidacion->>'banco' = ${cuenta.banco}
                and cuenta_liquidacion->>'tipo' = ${cuenta.tipo}`
            const added = CuentasAprobadas.add(
              row.cuentas_aprobadas,
              known.map((k) => k.cuenta_liquidacion),
              cuenta
            )
            if (added._tag === "YaEstaba") return { added: false, cuentas_aprobadas: added.cuentas }
            if (added._tag !== "Agregada") {
              const refused = CuentasAprobadas.refusal(added)
              return yield* Effect.fail(AdminError.conflict(refused.error, refused.detail))
            }
            const next = added.cuentas
            // Serialised here: the driver would send a JS array as a Postgres array, not as JSON.
            yield* sql`
              update comercios set cuentas_aprobadas = ${JSON.stringify(next)}::jsonb where id = ${row.id}`
            return { added: true, cuentas_aprobadas: next }
          })
        )
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    return { view, approve, review, patch, setRate, currentRate, addApprovedAccount }
  })
)
