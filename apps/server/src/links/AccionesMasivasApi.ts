/**
 * `/switch/v1/acciones-masivas` (links/AccionesMasivas.ts): a `propietario`'s portal session
 * only; a key is `401` here, another role `403 rol_no_permitido` (the authentication middleware,
 * `sessionRefusal` in @switch/api). The session's POST is written to the users' audit log by
 * the middleware; the job writes `accion_masiva_terminada` when it ends.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { PgClient } from "@effect/sql-pg"
import { type Caller, CurrentCaller, SwitchApi, Unauthorized } from "@switch/api"
import { Effect } from "effect"
import { archivo, crear, get, view } from "./AccionesMasivas.js"

const sessionOf = (caller: Caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)

export const AccionesMasivasApiLive = HttpApiBuilder.group(SwitchApi, "accionesMasivas", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const caller = Effect.flatMap(CurrentCaller, sessionOf)
    return handlers
      .handle("crear", ({ payload }) =>
        Effect.flatMap(caller, (c) => crear(c, payload)).pipe(Effect.provideService(PgClient.PgClient, sql))
      )
      .handle("get", ({ path }) =>
        Effect.flatMap(caller, (c) => Effect.map(get(c, path.id), view)).pipe(
          Effect.provideService(PgClient.PgClient, sql)
        )
      )
      .handle("archivo", ({ path }) =>
        Effect.gen(function* () {
          const c = yield* caller
          const csv = yield* archivo(c, path.id).pipe(Effect.provideService(PgClient.PgClient, sql))
          return HttpServerResponse.text(csv, {
            contentType: "text/csv; charset=utf-8",
            headers: {
              "content-disposition": `attachment; filename="links-${path.id.slice(0, 8)}.csv"`,
              "cache-control": "no-store"
            }
          })
        })
      )
  })
)
