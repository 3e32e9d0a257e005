/**
 * Tips chosen by the merchant in the portal (issue 33; the contract is @switch/api's
 * Propinas.ts): `comercios.propina_max_bp`, the cap the payment page already applies (with
 * @switch/core's Bs 100,000 ceiling), read and set here. A portal session only (a key is `401`);
 * only a `propietario` sets it (http/Auth.ts refuses the others), and its audit log keeps who did.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, SwitchApi, Unauthorized, ValidationError } from "@switch/api"
import { Fees, Money } from "@switch/core"
import { Effect, Either } from "effect"

const sessionCaller = Effect.flatMap(CurrentCaller, (caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)
)

const view = (bp: number | null) => ({
  acepta: bp !== null && bp > 0,
  max_pct: bp !== null && bp > 0 ? bp / 100 : null,
  max_bs: Money.toNumber(Fees.TIP_MAX)
})

const invalid = (message: string) =>
  Effect.fail(new ValidationError({ detail: { fieldErrors: { max_pct: [message] } } }))

export const PropinasApiLive = HttpApiBuilder.group(SwitchApi, "propinas", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("get", () =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const rows = yield* sql<{ propina_max_bp: number | null }>`
            select propina_max_bp from comercios where id = ${caller.comercioId}`.pipe(Effect.orDie)
          return view(rows[0]?.propina_max_bp ?? null)
        })
      )
      .handle("put", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          let bp: number | null = null
          if (payload.acepta) {
            if (payload.max_pct === undefined) return yield* invalid("es obligatorio para aceptar propinas")
            // A percentage with two decimals is a whole number of basis points.
            const read = Money.fromPositiveNumber(payload.max_pct)
            if (Either.isLeft(read)) return yield* invalid(Money.issueMessage[read.left])
            if (read.right > 10_000) return yield* invalid("no puede pasar de 100 %")
            bp = read.right
          } else if (payload.max_pct !== undefined)
            return yield* invalid("sin propinas no lleva tope; quítalo o acepta propinas")
          const rows = yield* sql<{ propina_max_bp: number | null }>`
            update comercios set propina_max_bp = ${bp} where id = ${caller.comercioId}
            returning propina_max_bp`.pipe(Effect.orDie)
          return view(rows[0]?.propina_max_bp ?? null)
        })
      )
  })
)
