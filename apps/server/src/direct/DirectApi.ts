/** HTTP handlers of the direct API: read the body, call the step, answer SPEC's result object. */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { CurrentCaller, Direct, SwitchApi } from "@switch/api"
import { Effect, Either } from "effect"
import type { Settings } from "../Config.js"
import { bodyText, json, parseJson, tooLarge } from "../http/Respond.js"
import type { Banks } from "../platform/bank/Banks.js"
import { collect, requestCode } from "./Cobros.js"
import { consultar } from "./Consultas.js"
import { dispersar, pagar } from "./Pagos.js"
import { reintegro, reverso } from "./Reintegros.js"
import { resultado } from "./Store.js"

/** The body as JSON (`parseJson`); a body it refuses is the direct API's `400 VALIDATION`. */
const body = bodyText(() => new Direct.DirectValidationError({ detail: tooLarge })).pipe(
  Effect.flatMap((text) =>
    Either.mapLeft(parseJson(text), (e) => new Direct.DirectValidationError({ detail: e.detail }))
  )
)

/** `503 cierre_bancario` with SPEC's `Retry-After` header. */
const closedAnswer = (e: Direct.BankClosed) =>
  Effect.succeed(
    HttpServerResponse.unsafeJson(
      { error: e.error, motivo: e.motivo, reintentar_en: e.reintentar_en },
      { status: 503, headers: { "retry-after": String(e.reintentar_en) } }
    )
  )

/** `409 tope_*` with every field of its body (`tope`, `usado`, dollar fields). */
const capAnswer = (e: Direct.CapExceeded) => Effect.succeed(json({ ...e }, 409))

/** `503 tasa_no_disponible` with `motivo` for the payer. */
const rateAnswer = (e: Direct.RateUnavailable) =>
  Effect.succeed(json({ error: e.error, motivo: e.motivo }, 503))

const codeAnswers = <A, E, R>(
  effect: Effect.Effect<A, E | Direct.BankClosed | Direct.CapExceeded | Direct.RateUnavailable, R>
) =>
  effect.pipe(
    Effect.catchIf((e): e is Direct.BankClosed => e instanceof Direct.BankClosed, closedAnswer),
    Effect.catchIf((e): e is Direct.CapExceeded => e instanceof Direct.CapExceeded, capAnswer),
    Effect.catchIf((e): e is Direct.RateUnavailable => e instanceof Direct.RateUnavailable, rateAnswer)
  )

export const DirectApiLive = HttpApiBuilder.group(SwitchApi, "direct", (handlers) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<PgClient.PgClient | SqlClient.SqlClient | Settings | Banks>()
    const step =
      <A, E, R>(run: (caller: typeof CurrentCaller.Service, raw: unknown) => Effect.Effect<A, E, R>) =>
      () =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          return yield* run(caller, yield* body)
        }).pipe(Effect.provide(context))
    return handlers
      .handleRaw("cobrarToken", () =>
        codeAnswers(Effect.map(step(requestCode)(), ({ row }) => json(resultado(row))))
      )
      .handleRaw("cobrar", () => codeAnswers(Effect.map(step(collect)(), ({ row }) => json(resultado(row)))))
      .handleRaw("pagar", () => Effect.map(step(pagar)(), (row) => json(resultado(row))))
      .handleRaw("dispersiones", () => Effect.map(step(dispersar)(), (r) => json(r)))
      .handleRaw("consultar", () => Effect.map(step(consultar)(), (row) => json(resultado(row))))
      .handleRaw("reintegro", () => Effect.map(step(reintegro)(), (row) => json(resultado(row))))
      .handleRaw("reverso", () => Effect.map(step(reverso)(), (row) => json(resultado(row))))
  })
)
