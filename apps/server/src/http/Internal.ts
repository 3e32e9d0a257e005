/**
 * Internal-use routes SPEC names: they exist, answer merchant keys `403`, and are not in
 * `/openapi.json`. A request without a valid key is `401` as everywhere.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { lookupCaller } from "./Auth.js"
import { KeyCache } from "./KeyCache.js"
import { json } from "./Respond.js"

const refuse = (sql: SqlClient.SqlClient, cache: KeyCache["Type"], error: string | null) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const caller = yield* lookupCaller(request.headers["x-switch-key"] ?? "")
    if (Option.isNone(caller)) return json({ error: "unauthorized" }, 401)
    return json(
      error === null
        ? { error: "prohibido", detail: "Ruta de uso interno." }
        : { error, detail: "Ruta de uso interno." },
      403
    )
  }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(KeyCache, cache))

export const InternalRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cache = yield* KeyCache
    yield* router.get("/switch/v1/bancos", refuse(sql, cache, "solo_uso_interno"))
    yield* router.get("/switch/v1/politica-dinero", refuse(sql, cache, "solo_uso_interno"))
    yield* router.get("/switch/v1/saldo", refuse(sql, cache, "cuenta_no_permitida"))
    yield* router.get("/switch/v1/movimientos", refuse(sql, cache, "cuenta_no_permitida"))
    yield* router.post("/switch/v1/conciliar", refuse(sql, cache, null))
    yield* router.post("/switch/v1/conciliar/saliente", refuse(sql, cache, null))
    yield* router.post("/switch/v1/conciliar/multiple", refuse(sql, cache, null))
  })
)
