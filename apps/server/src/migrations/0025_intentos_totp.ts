/**
 * Wrong codes given to turn a portal user's second factor off (issue 41), kept like failed
 * sign-ins (0012): one row per counted guess, per user's e-mail (folded) and address, so that a
 * stolen session cannot try codes without end (platform/Guesses.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table intentos_totp (
      id bigserial primary key,
      email text not null,
      ip text not null,
      created_at timestamptz not null default now()
    )`
  yield* sql`create index intentos_totp_email on intentos_totp (email, created_at)`
  yield* sql`create index intentos_totp_ip on intentos_totp (ip, created_at)`
})
