/**
 * The split accounts a merchant approves in the portal (issue 33; the contract, with who may
 * call and how "another holder" is read, is @switch/api's CuentasAprobadas.ts; the rules are
 * @switch/core's CuentasAprobadas.ts). They live in `comercios.cuentas_aprobadas`, the column
 * the admin API also fills and a link's split is checked against (links/CreateLink.ts). A
 * portal session only (a key is `401`); http/Auth.ts refuses a role other than `propietario`
 * on a change and writes every change to the users' audit log. An add answers `201` when the
 * account was added and `200` with the unchanged list when it was already there, as the admin
 * API's `POST /admin/v1/comercios/{codigo}/cuentas-aprobadas` does; both refuse through
 * @switch/core's `CuentasAprobadas.add` and answer its `refusal`.
 *
 * An account's `id` in these routes is opaque (`ca_` and an HMAC, keyed with the server secret,
 * of the merchant and the account's type, bank and number): the number, often a beneficiary's
 * phone, never goes into a URL or the request log, and nobody without the secret can tell a
 * number from its id. Derived rather than stored, so accounts approved before need nothing.
 */
import { createHmac } from "node:crypto"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import {
  CuentasAprobadas,
  CurrentCaller,
  NotFound,
  SwitchApi,
  Unauthorized,
  ValidationError
} from "@switch/api"
import { Instrument, CuentasAprobadas as Rules } from "@switch/core"
import { Effect, Either, Redacted } from "effect"
import { Settings } from "../Config.js"

const sessionCaller = Effect.flatMap(CurrentCaller, (caller) =>
  caller.sesion === undefined
    ? Effect.fail(new Unauthorized({ detail: "Esta ruta es del panel: requiere una sesión, no una llave." }))
    : Effect.succeed(caller)
)

/** The opaque id of `cuenta` among `comercioId`'s approved accounts. */
const cuentaId = (secret: string, comercioId: string, cuenta: Instrument.Instrument): string =>
  `ca_${createHmac("sha256", secret)
    .update(
      `cuenta_aprobada\0${comercioId}\0${cuenta.tipo}\0${cuenta.banco}\0${cuenta.valor.replace(/\D/g, "")}`
    )
    .digest("base64url")
    .slice(0, 22)}`

export const CuentasAprobadasApiLive = HttpApiBuilder.group(SwitchApi, "cuentasAprobadas", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const secret = Redacted.value((yield* Settings).secret)
    const view = (comercioId: string, cuentas: ReadonlyArray<Instrument.Instrument>) => ({
      data: cuentas.map((cuenta) => ({ id: cuentaId(secret, comercioId, cuenta), ...cuenta })),
      max: Rules.MAX
    })
    /** The merchant's row, locked for the change that follows. */
    const lock = (comercioId: string) =>
      Effect.map(
        sql<{ cuentas_aprobadas: ReadonlyArray<Instrument.Instrument> }>`
          select cuentas_aprobadas from comercios where id = ${comercioId} for update`,
        (rows) => rows[0]?.cuentas_aprobadas ?? []
      )
    const save = (comercioId: string, cuentas: ReadonlyArray<Instrument.Instrument>) =>
      // Serialised here: the driver would send a JS array as a Postgres array, not as JSON.
      sql`update comercios set cuentas_aprobadas = ${JSON.stringify(cuentas)}::jsonb where id = ${comercioId}`
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const rows = yield* sql<{ cuentas_aprobadas: ReadonlyArray<Instrument.Instrument> }>`
            select cuentas_aprobadas from comercios where id = ${caller.comercioId}`.pipe(Effect.orDie)
          return view(caller.comercioId, rows[0]?.cuentas_aprobadas ?? [])
        })
      )
      .handle("add", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          const checked = Instrument.check("", payload)
          if (Either.isLeft(checked)) return yield* Effect.fail(new ValidationError({ detail: checked.left }))
          const cuenta = checked.right
          // Settlement accounts were checked to be in their merchant's name: their holders are known.
          const known = yield* sql<{ cuenta_liquidacion: Instrument.Instrument }>`
            select cuenta_liquidacion from comercios
            where cuenta_liquidacion->>'valor' = ${cuenta.valor} and cuenta_liquidacion->>'banco' = ${cuenta.banco}
              and cuenta_liquidacion->>'tipo' = ${cuenta.tipo}`
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              const current = yield* lock(caller.comercioId)
              const added = Rules.add(
                current,
                known.map((row) => row.cuenta_liquidacion),
                cuenta
              )
              switch (added._tag) {
                case "OtroTitular":
                case "Limite":
                  return yield* Effect.fail(new CuentasAprobadas.CuentasConflict(Rules.refusal(added)))
                case "YaEstaba":
                  // Already there: nothing added, `200` with the list as it is (the admin API's rule too).
                  return HttpServerResponse.unsafeJson(view(caller.comercioId, added.cuentas), {
                    status: 200
                  })
                case "Agregada":
                  yield* save(caller.comercioId, added.cuentas)
                  return view(caller.comercioId, added.cuentas)
              }
            })
          )
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
      .handle("remove", ({ path }) =>
        Effect.gen(function* () {
          const caller = yield* sessionCaller
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              const current = yield* lock(caller.comercioId)
              const named = current.find((cuenta) => cuentaId(secret, caller.comercioId, cuenta) === path.id)
              const next = named === undefined ? undefined : Rules.remove(current, named)
              if (next === undefined)
                return yield* Effect.fail(
                  new NotFound({ error: "not_found", detail: "No hay una cuenta aprobada con ese id." })
                )
              yield* save(caller.comercioId, next)
              return view(caller.comercioId, next)
            })
          )
        }).pipe(Effect.catchTag("SqlError", Effect.die))
      )
  })
)
