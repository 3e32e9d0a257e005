/**
 * `invitaciones_ajenas`: a team invitation (`POST /switch/v1/equipo`) of an e-mail that already
 * has a portal user in another merchant. E-mails are unique among users, so no user can be made
 * for it; the owner gets the answer a new address gets, and the invitation is kept here so the
 * team list, a role change and a removal treat it as any invitation not yet accepted (else the
 * list would tell which addresses have an account). Its e-mail's holder is told by mail.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table invitaciones_ajenas (
      id uuid primary key,
      comercio_id uuid not null references comercios (id),
      email text not null,
      rol text not null check (rol in ('propietario', 'cajero', 'lectura')),
      created_at timestamptz not null default now()
    )`
  yield* sql`create unique index invitaciones_ajenas_email on invitaciones_ajenas (comercio_id, lower(email))`
})
