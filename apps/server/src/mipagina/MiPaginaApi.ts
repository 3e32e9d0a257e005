/**
 * `GET` and `PUT /switch/v1/mi-pagina`: the merchant's own payment page's settings, from the
 * portal. A session only (a key is `401` here); the owner-only change is checked by the
 * authentication middleware (`sessionRefusal` in @switch/api: `403 rol_no_permitido`).
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import {
  type MiPagina as Api,
  type Caller,
  CurrentCaller,
  SwitchApi,
  Unauthorized,
  ValidationError
} from "@switch/api"
import { MiPagina, Money } from "@switch/core"
import { Effect, Either } from "effect"
import { Settings } from "../Config.js"
import { byMerchant, type Pagina, paginaUrl, save } from "./MiPaginaStore.js"

const sessionOf = (caller: Caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)

export const MiPaginaApiLive = HttpApiBuilder.group(SwitchApi, "miPagina", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { baseUrl } = yield* Settings
    const view = (p: Pagina): Api.MiPagina => {
      const url = paginaUrl(baseUrl, p.codigo)
      return {
        activa: p.activa,
        monto_min: Money.toNumber(p.montoMin),
        monto_max: Money.toNumber(p.montoMax),
        concepto_permitido: p.conceptoPermitido,
        mode: p.mode,
        url,
        qr_png: `${url}/qr.png`,
        updated_at: p.updatedAt === null ? null : p.updatedAt.toISOString()
      }
    }
    const current = (caller: Caller) =>
      Effect.map(
        Effect.provideService(byMerchant(caller.comercioId, caller.mode), SqlClient.SqlClient, sql),
        view
      )
    return handlers
      .handle("get", () => Effect.flatMap(Effect.flatMap(CurrentCaller, sessionOf), current))
      .handle("guardar", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* Effect.flatMap(CurrentCaller, sessionOf)
          const ajustes = MiPagina.decodeAjustes(payload)
          if (Either.isLeft(ajustes)) return yield* Effect.fail(new ValidationError({ detail: ajustes.left }))
          yield* Effect.provideService(
            save(caller.comercioId, caller.mode, ajustes.right),
            SqlClient.SqlClient,
            sql
          )
          return yield* current(caller)
        })
      )
  })
)
