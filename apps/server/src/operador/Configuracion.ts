/**
 * A merchant's configuration from the console (issue 32): its commission, its tip cap, its money
 * limits, immediate settlement and its pilots (split payments, card payments, the portal's refunds)
 * on or off, and the split's daily cap per beneficiary (issue 42).
 *
 * `PATCH /admin/v1/operador/comercios/{codigo}` is for `riesgo` only (everyone reads the merchant
 * with `GET /admin/v1/operador/comercios/{codigo}`). The body carries only these fields, plus an
 * optional `nota`; anything else is `400`. The rules are the admin API's own (the admin service's
 * `patch`, reached through `ComercioAcciones`): a bad value is `400 validation` and changes
 * nothing. The change and its audit row, with the configuration before and after, commit in one
 * transaction.
 */
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { json } from "../http/Respond.js"
import { type AccionError, ComercioAcciones } from "./Comercios.js"
import type { Contexto, Handler } from "./cola/Cola.js"
import { decodeBody, OperadorError, OperadorService } from "./OperadorService.js"

const CODIGO = /^[a-z0-9_-]{3,32}$/

/** The fields the console may change; their values are checked by the admin service. */
export const CAMPOS_CONFIGURACION = [
  "comision_pct",
  "propina_max_pct",
  "monto_min",
  "monto_max",
  "max_diario",
  "tope_diario",
  "tope_acumulado",
  "tope_beneficiario_diario",
  "liquidacion_inmediata",
  "split_habilitado",
  "tarjeta_habilitada",
  "recargo_tarjeta_pct",
  "reembolsos_habilitado"
] as const

const Campo = Schema.optional(Schema.Unknown)

const ConfiguracionBody = Schema.Struct({
  comision_pct: Campo,
  propina_max_pct: Campo,
  monto_min: Campo,
  monto_max: Campo,
  max_diario: Campo,
  tope_diario: Campo,
  tope_acumulado: Campo,
  tope_beneficiario_diario: Campo,
  liquidacion_inmediata: Campo,
  split_habilitado: Campo,
  tarjeta_habilitada: Campo,
  recargo_tarjeta_pct: Campo,
  reembolsos_habilitado: Campo,
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})

/** The configuration part of the admin view, as the audit row keeps it. */
const configuracion = (view: unknown): Record<string, unknown> => {
  const record = (view ?? {}) as Record<string, unknown>
  const out: Record<string, unknown> = { comision_acordada: record.comision_acordada }
  for (const campo of CAMPOS_CONFIGURACION) out[campo] = record[campo]
  return out
}

const fromAdmin = (error: AccionError | OperadorError) =>
  error instanceof OperadorError
    ? error
    : new OperadorError({ status: error.status, error: error.error, detail: error.detail })

/** The handler of `PATCH /admin/v1/operador/comercios/{codigo}`. */
export const configuracionRoute = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const admin = yield* ComercioAcciones
    const operadores = yield* OperadorService

    const handler: Handler = Effect.gen(function* () {
      const who = yield* ctx.operador()
      const params = yield* HttpRouter.params
      const code = params.codigo ?? ""
      if (!CODIGO.test(code)) return yield* Effect.fail(OperadorError.notFound())
      const { nota, ...cambios } = yield* decodeBody(ConfiguracionBody)(yield* ctx.body)
      const patch = Object.fromEntries(Object.entries(cambios).filter(([, value]) => value !== undefined))
      if (Object.keys(patch).length === 0)
        return yield* Effect.fail(
          OperadorError.validation(`Indica al menos un cambio: ${CAMPOS_CONFIGURACION.join(", ")}.`)
        )
      const despues = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const antes = yield* admin.view(code)
            const despues = yield* admin.patch(code, patch)
            yield* operadores.auditar(who, {
              accion: "comercio.configurar",
              objeto_tipo: "comercio",
              objeto_id: code,
              antes: configuracion(antes),
              despues: configuracion(despues),
              nota
            })
            return despues
          })
        )
        .pipe(Effect.catchTag("SqlError", Effect.die), Effect.mapError(fromAdmin))
      return json(despues)
    })
    return handler
  })
