/**
 * The opt-in daily summary mail, chosen in the portal (issue 45; the contract is @switch/api's
 * ResumenDiario.ts; the mail is ../platform/ResumenDiario.ts): `comercios.resumen_diario`, read and
 * set here. A `propietario`'s portal session only (http/Auth.ts refuses keys and other roles),
 * and its audit log keeps who changed it.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, SwitchApi, Unauthorized } from "@switch/api"
import { Effect } from "effect"

const sessionCaller = Effect.flatMap(CurrentCaller, (caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)
)

export const ResumenDiarioApiLive = HttpApiBuilder.group(SwitchApi, "resumenDiario", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("get", () =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const rows = yield* sql<{ resumen_diario: boolean }>`
            select resumen_diario from comercios where id = ${caller.comercioId}`.pipe(Effect.orDie)
          return { resumen_diario: rows[0]?.resumen_diario ?? false }
        })
      )
      .handle("put", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const rows = yield* sql<{ resumen_diario: boolean }>`
            update comercios set resumen_diario = ${payload.resumen_diario} where id = ${caller.comercioId}
            returning resumen_diario`.pipe(Effect.orDie)
          return { resumen_diario: rows[0]?.resumen_diario ?? false }
        })
      )
  })
)
