/**
 * The split's security controls in the console (issue 42): the accounts blocked from any split
 * (`cuentas_bloqueadas`, keyed by core's `Split.cuentaClave`: type, bank and number), which
 * `riesgo` alone lists, adds to and removes from. A blocked account is refused at a link's
 * creation (`split_beneficiario_bloqueado`) and no part is paid to it, automatically or by an
 * operator (settlement/RepartoLive.ts, cola/Repartos.ts).
 *
 * - `GET /admin/v1/operador/cuentas-bloqueadas`: the list, newest first.
 * - `POST /admin/v1/operador/cuentas-bloqueadas` with `tipo`, `banco`, `valor` and `motivo`:
 *   blocks it (`201`; `409 cuenta_ya_bloqueada` when it already is).
 * - `POST /admin/v1/operador/cuentas-bloqueadas/:clave/desbloquear` with an optional `nota`:
 *   unblocks it (`404` when it is not blocked).
 *
 * Each change is audited (`cuenta_bloqueada.agregar`, `cuenta_bloqueada.quitar`) in its own
 * transaction.
 */
import { HttpRouter } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Split } from "@switch/core"
import { Effect, Schema } from "effect"
import { json } from "../http/Respond.js"
import type { Contexto, Ruta } from "./cola/Cola.js"
import { decodeBody, OperadorError, OperadorService } from "./OperadorService.js"

const BloquearBody = Schema.Struct({
  tipo: Schema.Literal("cuenta", "telefono"),
  banco: Schema.String.pipe(Schema.pattern(/^\d{4}$/)),
  valor: Schema.String.pipe(Schema.pattern(/^[\d -]{10,30}$/)),
  motivo: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(500))
})
const QuitarBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })

/** A key as `Split.cuentaClave` writes it. */
const CLAVE = /^([ct])-(\d{4})-(\d{10,20})$/

interface Row {
  readonly clave: string
  readonly motivo: string
  readonly created_at: Date
}

const view = (r: Row) => {
  const [, t, banco, numero] = CLAVE.exec(r.clave) ?? []
  return {
    clave: r.clave,
    tipo: t === "c" ? "cuenta" : t === "t" ? "telefono" : null,
    banco: banco ?? null,
    valor: numero ?? null,
    motivo: r.motivo,
    created_at: r.created_at.toISOString()
  }
}

export const cuentasBloqueadasRoutes = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const operadores = yield* OperadorService

    const clave = Effect.flatMap(HttpRouter.params, (params) =>
      CLAVE.test(params.clave ?? "")
        ? Effect.succeed(params.clave ?? "")
        : Effect.fail(OperadorError.notFound())
    )

    const routes: ReadonlyArray<Ruta> = [
      {
        method: "get",
        path: "/admin/v1/operador/cuentas-bloqueadas",
        handler: Effect.gen(function* () {
          yield* ctx.operador()
          const rows = yield* sql<Row>`
            select clave, motivo, created_at from cuentas_bloqueadas order by created_at desc, clave limit 1000`.pipe(
            Effect.orDie
          )
          return json({ data: rows.map(view) })
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/cuentas-bloqueadas",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const input = yield* decodeBody(BloquearBody)(yield* ctx.body)
          const key = Split.cuentaClave(input)
          if (!CLAVE.test(key))
            return yield* Effect.fail(OperadorError.validation("valor: de 10 a 20 dígitos"))
          const row = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const [row] = yield* sql<Row>`
                  insert into cuentas_bloqueadas (clave, motivo) values (${key}, ${input.motivo})
                  on conflict do nothing returning clave, motivo, created_at`
                if (row === undefined) return undefined
                yield* operadores.auditar(who, {
                  accion: "cuenta_bloqueada.agregar",
                  objeto_tipo: "cuenta_bloqueada",
                  objeto_id: key,
                  despues: view(row),
                  nota: input.motivo
                })
                return row
              })
            )
            .pipe(Effect.orDie)
          if (row === undefined)
            return yield* Effect.fail(
              OperadorError.conflict("cuenta_ya_bloqueada", "Esa cuenta ya está bloqueada.")
            )
          return json(view(row), 201)
        })
      },
      {
        method: "post",
        path: "/admin/v1/operador/cuentas-bloqueadas/:clave/desbloquear",
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const key = yield* clave
          const input = yield* decodeBody(QuitarBody)(yield* ctx.body)
          const row = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const [row] = yield* sql<Row>`
                  delete from cuentas_bloqueadas where clave = ${key} returning clave, motivo, created_at`
                if (row === undefined) return undefined
                yield* operadores.auditar(who, {
                  accion: "cuenta_bloqueada.quitar",
                  objeto_tipo: "cuenta_bloqueada",
                  objeto_id: key,
                  antes: view(row),
                  nota: input.nota
                })
                return row
              })
            )
            .pipe(Effect.orDie)
          if (row === undefined) return yield* Effect.fail(OperadorError.notFound())
          return json({ ...view(row), desbloqueada: true })
        })
      }
    ]
    return routes
  })
