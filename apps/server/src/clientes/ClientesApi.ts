/** `GET /switch/v1/clientes`: the merchant's customers in the key's mode. */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, SwitchApi, ValidationError } from "@switch/api"
import { Effect } from "effect"
import { parseCursor } from "../http/Page.js"
import { listCustomers } from "../platform/Customers.js"

const integer = (value: string | undefined, fallback: number, min: number, max: number, name: string) => {
  if (value === undefined || value === "") return Effect.succeed(fallback)
  const n = Number(value)
  return /^\d+$/.test(value) && n >= min && n <= max
    ? Effect.succeed(n)
    : Effect.fail(
        new ValidationError({ parametro: name, detail: `debe ser un entero entre ${min} y ${max}` })
      )
}

export const ClientesApiLive = HttpApiBuilder.group(SwitchApi, "clientes", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const limit = yield* integer(urlParams.limit, 50, 1, 200, "limit")
        const offset = yield* integer(urlParams.offset, 0, 0, 1_000_000, "offset")
        const startingAfter = yield* parseCursor(urlParams.starting_after)
        return yield* listCustomers(caller.comercioId, caller.mode, limit, offset, startingAfter).pipe(
          Effect.provideService(SqlClient.SqlClient, sql)
        )
      })
    )
  })
)
