/**
 * Limits on guessing a secret (a password, a TOTP code), kept in Postgres so that every server
 * process shares them (issue 41).
 *
 * A guess is claimed before its secret is checked. Reading past failures first and writing the
 * new one after a slow check (scrypt) let concurrent guesses all read the same count and all be
 * checked: 60 wrong passwords at once got 29 to 39 checks against a limit of 5. A claim is a row
 * of the policy's table (`email`, `ip`, `created_at`), inserted only while the failures of the
 * window are under every limit; it stays as a failure unless the check passes, and then
 * {@link release} takes it back.
 *
 * Why claims cannot overtake each other: each takes transaction-scoped advisory locks on its
 * account and then on its address (always in that order, so two claims never wait on each other
 * in a cycle), counts with a statement that starts after both are held, and inserts before it
 * commits. Locks go only at commit, so a claim that shares either key with an earlier one waits
 * for it and then counts its row.
 *
 * Three limits, so that a lock cannot easily be turned against the owner: one account from one
 * address (a guesser's address is locked out of the account, the owner elsewhere is not), one
 * address on every account (a guesser trying many e-mails), and one account from every address
 * (guessers spread over many addresses, which does lock the account).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

export interface Policy {
  /** Where the claims are kept: a table of `(id, email, ip, created_at)`. */
  readonly table: "intentos_ingreso" | "intentos_operador" | "intentos_totp"
  /** Failures are counted over this many minutes. */
  readonly windowMinutes: number
  /** Failures on one account from one address. */
  readonly perAccountAddress: number
  /** Failures on one account from every address. */
  readonly perAccount: number
  /** Failures from one address on every account; none when the address is not limited. */
  readonly perAddress: number | undefined
}

/** Portal sign-in (`POST /switch/v1/sesion`): a wrong password or a wrong second-factor code. */
export const PORTAL: Policy = {
  table: "intentos_ingreso",
  windowMinutes: 15,
  perAccountAddress: 5,
  perAccount: 20,
  perAddress: 20
}

/** The operators' console sign-in (`POST /admin/v1/operador/sesion`): password and code. */
export const OPERADOR: Policy = { ...PORTAL, table: "intentos_operador" }

/**
 * Turning a portal user's second factor off (`POST /switch/v1/sesion/totp/desactivar`): wrong
 * codes of one user, from any address, since whoever asks already holds one of its sessions.
 */
export const TOTP_DESACTIVAR: Policy = {
  table: "intentos_totp",
  windowMinutes: 15,
  perAccountAddress: 5,
  perAccount: 5,
  perAddress: undefined
}

/** The failures of the window that a guess of `account` from `address` is counted against. */
export interface Counts {
  readonly accountAddress: number
  readonly account: number
  readonly address: number
}

/** Whether one more guess is allowed after `counts` failures. */
export const allows = (policy: Policy, counts: Counts): boolean =>
  counts.accountAddress < policy.perAccountAddress &&
  counts.account < policy.perAccount &&
  (policy.perAddress === undefined || counts.address < policy.perAddress)

const lockKey = (policy: Policy, kind: "cuenta" | "ip", value: string) => `${policy.table}:${kind}:${value}`

/**
 * Claims one guess of `account` (an e-mail, folded) from `address`: the claim's id, counted as a
 * failure from now on, or none when a limit is reached (nothing is counted then).
 */
export const claim = (
  policy: Policy,
  account: string,
  address: string
): Effect.Effect<Option.Option<string>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.gen(function* () {
        const table = sql(policy.table)
        yield* sql`select pg_advisory_xact_lock(hashtextextended(${lockKey(policy, "cuenta", account)}, 0))`
        if (policy.perAddress !== undefined)
          yield* sql`select pg_advisory_xact_lock(hashtextextended(${lockKey(policy, "ip", address)}, 0))`
        const [counts] = yield* sql<Counts>`
          select
            count(*) filter (where email = ${account} and ip = ${address})::int as "accountAddress",
            count(*) filter (where email = ${account})::int as account,
            count(*) filter (where ip = ${address})::int as address
          from ${table}
          where created_at > now() - make_interval(mins => ${policy.windowMinutes})
            and (email = ${account} or ip = ${address})`
        if (counts === undefined || !allows(policy, counts)) return Option.none<string>()
        const [row] = yield* sql<{ id: string }>`
          insert into ${table} (email, ip) values (${account}, ${address}) returning id::text as id`
        return Option.fromNullable(row?.id)
      })
    )
  ).pipe(Effect.orDie)

/** Takes a claim back: its guess was right, so it is no failure. */
export const release = (policy: Policy, id: string): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`delete from ${sql(policy.table)} where id = ${id}`).pipe(
    Effect.asVoid,
    Effect.orDie
  )

/** Forgets every failure on `account`, from every address (its secret was just set anew). */
export const forget = (policy: Policy, account: string): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`delete from ${sql(policy.table)} where email = ${account}`
  ).pipe(Effect.asVoid, Effect.orDie)
