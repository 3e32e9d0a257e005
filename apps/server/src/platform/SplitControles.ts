/**
 * What the split's controls read from Postgres (core's `Split.Controles`): the accounts a security
 * control blocks (`cuentas_bloqueadas`), the merchant's daily cap per beneficiary, and what each
 * account was paid today or has at the bank (`pagos_reparto` `enviado` or `pagado` since the
 * Venezuelan midnight, the merchant's and the mode's). Read at a link's creation and again before
 * each part is paid, inside the caller's transaction when it has one.
 */

import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { BankCalendar, Split } from "@switch/core"
import { Effect } from "effect"

export const controles = (input: {
  readonly comercioId: string
  readonly mode: "test" | "live"
  readonly claves: ReadonlyArray<string>
  readonly tope: number | null
  readonly at: Date
}): Effect.Effect<Split.Controles, SqlError, PgClient.PgClient> =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const claves = [...new Set(input.claves)]
    const bloqueadas = yield* sql<{ clave: string }>`
      select clave from cuentas_bloqueadas where clave in ${sql.in(claves)}`
    const usados = yield* sql<{ clave: string; monto: number }>`
      select cuenta_clave as clave, sum(monto)::bigint as monto from pagos_reparto
      where comercio_id = ${input.comercioId} and mode = ${input.mode} and cuenta_clave in ${sql.in(claves)}
        and estado in ('enviado', 'pagado') and created_at >= ${BankCalendar.caracasDayStart(input.at)}
      group by cuenta_clave`
    const found: Split.Controles = {
      bloqueadas: new Set(bloqueadas.map((r) => r.clave)),
      topeDiario: Split.topeDiario(input.tope),
      usadoHoy: new Map(usados.map((r) => [r.clave, Number(r.monto)]))
    }
    return found
  })
