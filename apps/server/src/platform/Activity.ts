/**
 * The portal users' audit log (DESIGN §8): every unsafe request a session makes (http/Auth.ts),
 * and sign-in, failed sign-in and lock-out (sesiones/). Who, when, what (an action and its
 * object: the method and the path, never a query or a body), from which address, the HTTP
 * result. Nothing secret goes in: no passwords, tokens or codes travel in a path.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface ActivityEntry {
  readonly comercioId: string
  readonly usuarioId: string | null
  readonly email: string
  readonly accion: string
  readonly objeto: string | null
  readonly ip: string
  readonly resultado: number
}

/** Writes one entry; a failure to write is logged, never the request's failure. */
export const recordActivity = (entry: ActivityEntry): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`
      insert into actividad (comercio_id, usuario_id, email, accion, objeto, ip, resultado)
      values (${entry.comercioId}, ${entry.usuarioId}, ${entry.email}, ${entry.accion.slice(0, 200)},
        ${entry.objeto === null ? null : entry.objeto.slice(0, 500)}, ${entry.ip}, ${entry.resultado})`
  ).pipe(
    Effect.asVoid,
    Effect.catchAllCause((cause) => Effect.logWarning("actividad no registrada", cause))
  )
