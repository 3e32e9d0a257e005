/**
 * Internal-use routes SPEC names: they exist, answer merchant keys `403`, and are not in
 * `/openapi.json`. A request without a valid key is `401` as everywhere.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { makeLookupCaller } from "./Auth.js"
import { json } from "./Respond.js"

const refuse = (lookupCaller: Effect.Effect.Success<typeof makeLookupCaller>, error: string | null) =>
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
  })

export const InternalRoutesLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const lookupCaller = yield* makeLookupCaller
    yield* router.get("/switch/v1/bancos", refuse(lookupCaller, "solo_uso_interno"))
    yield* router.get("/switch/v1/politica-dinero", refuse(lookupCaller, "solo_uso_interno"))
    yield* router.get("/switch/v1/saldo", refuse(lookupCaller, "cuenta_no_permitida"))
    yield* router.get("/switch/v1/movimientos", refuse(lookupCaller, "cuenta_no_permitida"))
    yield* router.post("/switch/v1/conciliar", refuse(lookupCaller, null))
    yield* router.post("/switch/v1/conciliar/saliente", refuse(lookupCaller, null))
    yield* router.post("/switch/v1/conciliar/multiple", refuse(lookupCaller, null))
  })
)
