/**
 * The merchant's customers (the `clientes` table): the payment page adds them (checkout/Settle.ts),
 * the API lists them (clientes/ClientesApi.ts), so the statements live here, below both. A payer joins when a link they paid had the checkbox ticked; the
 * row is keyed by a secret-keyed fingerprint of their id and phone (`huella`), so the same
 * payer is never listed twice, and the payer's id and phone are never stored.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type { Clientes, Mode } from "@switch/api"
import { Effect } from "effect"

export interface JoinInput {
  readonly comercioId: string
  readonly mode: Mode
  readonly huella: string
  readonly nombre: string | null
  /** Business merchant: the tick is consent to news. Personal account: only "save my data". */
  readonly empresa: boolean
}

/**
 * Adds the payer to the merchant's customers. An existing customer keeps its name; consent to
 * news is only ever added, by a live payment to a business. Test links never give consent.
 */
export const joinCustomer = (input: JoinInput) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const consent = input.empresa && input.mode === "live"
    yield* sql`
      insert into clientes (id, comercio_id, mode, huella, nombre, acepta_novedades)
      values (${randomUUID()}, ${input.comercioId}, ${input.mode}, ${input.huella}, ${input.nombre}, ${consent})
      on conflict (comercio_id, mode, huella)
        do update set acepta_novedades = clientes.acepta_novedades or excluded.acepta_novedades`
  })

interface Row {
  readonly id: string
  readonly acepta_novedades: boolean
  readonly mode: Mode
  readonly created_at: Date
}

/**
 * The merchant's customers of one mode, newest first. The name a customer gave is kept (and
 * never changed) but not listed: the API never shows a payer's id number, phone or name (SPEC).
 */
export const listCustomers = (
  comercioId: string,
  mode: Mode,
  limit: number,
  offset: number,
  /** The id of the last customer of the page before: this page starts after it. */
  startingAfter: string | null = null
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Row>`
      select id, acepta_novedades, mode, created_at from clientes
      where comercio_id = ${comercioId} and mode = ${mode}
      ${
        startingAfter === null
          ? sql``
          : sql`and (created_at, id) < (select created_at, id from clientes
              where id = ${startingAfter} and comercio_id = ${comercioId} and mode = ${mode})`
      }
      order by created_at desc, id desc limit ${limit} offset ${offset}`
    return rows.map(
      (row): Clientes.Cliente => ({
        id: row.id,
        acepta_novedades: row.acepta_novedades,
        prueba: row.mode === "test",
        mode: row.mode,
        created_at: row.created_at.toISOString()
      })
    )
  }).pipe(Effect.orDie)
