/**
 * Managing operators from the console (issue 32), for `riesgo`: list them, deactivate one (its
 * sessions end at once; it cannot sign in), reactivate it, and reset its TOTP: its sessions end,
 * the old authenticator stops working at once (the secret is replaced by one nobody is shown),
 * and the operator enrols a new one at its next sign-in, after its password
 * (OperadorService.ts). `riesgo` never sees the new secret (issue 41). An operator cannot
 * deactivate itself nor reset its own TOTP. Each change is audited in its own transaction; the
 * list (with `totp_por_configurar`) is for every operator.
 */
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { json } from "../http/Respond.js"
import { newTotpSecret } from "../platform/Totp.js"
import type { Contexto, Ruta } from "./cola/Cola.js"
import { decodeBody, OperadorError, OperadorService } from "./OperadorService.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const NotaBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })

interface Row {
  readonly id: string
  readonly email: string
  readonly rol: string
  readonly activo: boolean
  readonly totp_enrolar: boolean
  readonly created_at: Date
}

const view = (r: Row) => ({
  id: r.id,
  email: r.email,
  rol: r.rol,
  activo: r.activo,
  totp_por_configurar: r.totp_enrolar,
  creado_en: r.created_at.toISOString()
})

const COLUMNS = (sql: SqlClient.SqlClient) =>
  sql`id::text as id, email, rol, activo, totp_enrolar, created_at`

export const operadoresRoutes = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const operadores = yield* OperadorService

    const targetId = Effect.flatMap(HttpRouter.params, (params) =>
      UUID.test(params.id ?? "") ? Effect.succeed(params.id ?? "") : Effect.fail(OperadorError.notFound())
    )

    /** A change to another operator, its audit row and the end of its sessions in one transaction. */
    const change = (
      accion: string,
      run: (row: Row) => Effect.Effect<{ readonly despues: Row }, OperadorError, never>
    ): Ruta["handler"] =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const id = yield* targetId
        const input = yield* decodeBody(NotaBody)(yield* ctx.body)
        if (id === who.id)
          return yield* Effect.fail(
            OperadorError.conflict("operador_propio", "Otro operador de riesgo debe hacer este cambio.")
          )
        const done = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [row] = yield* sql<Row>`
                select ${COLUMNS(sql)} from operadores where id = ${id} for update`.pipe(Effect.orDie)
              if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
              const result = yield* run(row)
              yield* sql`update sesiones_operador set ended_at = now() where operador_id = ${id} and ended_at is null`.pipe(
                Effect.orDie
              )
              yield* operadores.auditar(who, {
                accion,
                objeto_tipo: "operador",
                objeto_id: id,
                antes: view(row),
                despues: view(result.despues),
                nota: input.nota
              })
              return result
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return json(view(done.despues))
      }) as Ruta["handler"]

    const setActivo = (activo: boolean) => (row: Row) =>
      sql<Row>`update operadores set activo = ${activo} where id = ${row.id}
        returning ${COLUMNS(sql)}`.pipe(
        Effect.map((rows) => ({ despues: rows[0] ?? row })),
        Effect.orDie
      )

    const routes: ReadonlyArray<Ruta> = [
      {
        method: "get",
        path: "/admin/v1/operador/operadores",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          const rows = yield* sql<Row>`
            select ${COLUMNS(sql)} from operadores order by created_at asc limit 500`.pipe(Effect.orDie)
          return json({ data: rows.map(view) })
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/operadores/:id/desactivar",
        handler: change("operador.desactivar", setActivo(false))
      },
      {
        method: "post",
        path: "/admin/v1/operador/operadores/:id/activar",
        handler: change("operador.activar", setActivo(true))
      },
      {
        method: "post",
        path: "/admin/v1/operador/operadores/:id/restablecer-totp",
        // The old secret is replaced by one nobody is shown: the old authenticator stops at once,
        // and the operator itself gets a fresh one at its next sign-in.
        handler: change("operador.restablecer_totp", (row) =>
          sql<Row>`update operadores set totp_secret = ${newTotpSecret()}, totp_ultimo_paso = 0, totp_enrolar = true
            where id = ${row.id} returning ${COLUMNS(sql)}`.pipe(
            Effect.map((rows) => ({ despues: rows[0] ?? row })),
            Effect.orDie
          )
        )
      }
    ]
    return routes
  })
