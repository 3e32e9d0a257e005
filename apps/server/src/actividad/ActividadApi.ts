/**
 * `GET /switch/v1/actividad`: the merchant's audit log (platform/Activity.ts), newest first,
 * paged by `limit` and `starting_after`; a `propietario`'s session only (the role is checked by
 * the authentication middleware, `sessionRefusal`; a key is refused here).
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { type Actividad, CurrentCaller, SwitchApi, Unauthorized, ValidationError } from "@switch/api"
import { Effect } from "effect"

interface Row {
  readonly id: string
  readonly created_at: Date
  readonly usuario_id: string | null
  readonly email: string
  readonly accion: string
  readonly objeto: string | null
  readonly ip: string
  readonly resultado: number
}

const view = (row: Row): typeof Actividad.Actividad.Type => ({
  id: row.id,
  created_at: row.created_at.toISOString(),
  usuario: { id: row.usuario_id, email: row.email },
  accion: row.accion,
  objeto: row.objeto,
  ip: row.ip,
  resultado: row.resultado
})

const badLimit = new ValidationError({ parametro: "limit", detail: "limit debe ser un entero entre 1 y 200" })
const badCursor = new ValidationError({
  parametro: "starting_after",
  detail: "starting_after debe ser el id de una entrada de la actividad"
})

export const ActividadApiLive = HttpApiBuilder.group(SwitchApi, "actividad", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        if (caller.sesion === undefined)
          return yield* Effect.fail(
            new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." })
          )
        const text = urlParams.limit
        const limit = text === undefined || text === "" ? 50 : /^\d{1,3}$/.test(text) ? Number(text) : 0
        if (!(limit >= 1 && limit <= 200)) return yield* Effect.fail(badLimit)
        const cursor = urlParams.starting_after === "" ? undefined : urlParams.starting_after
        if (cursor !== undefined && !/^\d{1,18}$/.test(cursor)) return yield* Effect.fail(badCursor)
        const rows = yield* sql<Row>`
          select id::text as id, created_at, usuario_id, email, accion, objeto, ip, resultado
          from actividad
          where comercio_id = ${caller.comercioId}
            ${cursor === undefined ? sql`` : sql`and actividad.id < ${cursor}`}
          order by actividad.id desc limit ${limit}`.pipe(Effect.orDie)
        return rows.map(view)
      })
    )
  })
)
