/**
 * The links repository: every statement on the `links` table (of links, the payment page,
 * batches, the payment recorder, settlement, refunds, cap usage and receipts; a statement on
 * another table that reads links takes its part here as a fragment), and the two conditions
 * every reader and writer of links shares, written once here:
 * - expiry: an open link (`pendiente`) whose `expires_at` has passed reads as, and may only
 *   become, `expirado` ({@link expired}, {@link unexpired}, {@link visibleEstado});
 * - suspension: a suspended merchant's links cannot start being paid, nor batches be made
 *   ({@link merchantSuspended}).
 *
 * Every state change goes through {@link move}: it takes a move the LinkMachine makes (a
 * `Transition` from `LinkMachine.transition`) and is a conditional update `where estado = from`,
 * so racing writers move a link once, and a move the machine never makes dies before any SQL
 * runs ({@link MoveRefused}). Here, below the features, because links, the payment page and
 * batches all read and change links. The fast insert of single links ({@link makeLinkInsert},
 * served by links/CreateLink.ts) keeps its SQL text (and its own copy of the suspension
 * condition) as measured.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { LinkMachine, type LinkRequest, type Ports, type Reembolso } from "@switch/core"
import { Data, Effect } from "effect"
import { coalesce } from "./Coalesce.js"
import type { MerchantRow } from "./Merchants.js"
import { PLANNED_EACH_TIME } from "./Prepared.js"
import type { PgPool } from "./Sql.js"

type Sql = PgClient.PgClient
type Fragment = Statement.Fragment

/** A `links` row as the queries select it. */
export interface LinkRow {
  readonly id: string
  readonly mode: Mode
  readonly estado: LinkMachine.LinkState
  readonly metodo: LinkMachine.Metodo | null
  readonly monto: number
  readonly propina: number
  readonly moneda: string
  readonly concepto: string | null
  readonly expires_at: Date | null
  readonly success_url: string | null
  readonly failure_url: string | null
  readonly metadata: Record<string, unknown>
  readonly idempotency_key: string | null
  readonly origen: string
  readonly lote_id: string | null
  readonly referencia_externa: string | null
  readonly split: ReadonlyArray<unknown> | null
  readonly reparto: unknown | null
  readonly txn_id: string | null
  readonly codigo_verificacion: string | null
  readonly alta_cliente: boolean
  readonly paid_at: Date | null
  readonly created_at: Date
}

/** The columns every link query selects, in {@link LinkRow}'s shape. */
export const LINK_COLUMNS = [
  "id",
  "mode",
  "estado",
  "metodo",
  "monto",
  "propina",
  "moneda",
  "concepto",
  "expires_at",
  "success_url",
  "failure_url",
  "metadata",
  "idempotency_key",
  "origen",
  "lote_id",
  "referencia_externa",
  "split",
  "reparto",
  "txn_id",
  "codigo_verificacion",
  "alta_cliente",
  "paid_at",
  "created_at"
] as const

/** The links' search text (platform/LinkText.ts), which every insert into `links` stores. */
export { searchable } from "./LinkText.js"

/** The snapshot the state machine needs, from a row and its merchant. */
export const snapshot = (row: LinkRow, merchant: MerchantRow): LinkMachine.LinkSnapshot => ({
  estado: row.estado,
  mode: row.mode,
  expiresAt: row.expires_at,
  metodo: row.metodo,
  failureUrl: row.failure_url,
  successUrl: row.success_url,
  comercioSuspendido: merchant.estado === "suspendido",
  liquidacionInmediata: merchant.liquidacion_inmediata,
  tarjetaHabilitada: merchant.tarjeta_habilitada,
  tieneSplit: row.split !== null
})

/** A state change the LinkMachine never makes: a bug, refused before writing. */
export class MoveRefused extends Data.TaggedError("MoveRefused")<{
  readonly from: LinkMachine.LinkState
  readonly to: LinkMachine.LinkState
}> {
  override get message() {
    return `LinkMachine never moves a link from ${this.from} to ${this.to}`
  }
}

/** A move of the machine: its `Transition`, or the two states of one. */
export type Move = Pick<LinkMachine.Transition, "from" | "to">

/** An open link past its expiry at `at` (it reads as `expirado`). */
export const expired = (sql: Sql, at: Date): Fragment => sql`(estado = 'pendiente' and expires_at <= ${at})`

/** A link whose expiry, if any, is still ahead of `at`. */
export const unexpired = (sql: Sql, at: Date): Fragment => sql`(expires_at is null or expires_at > ${at})`

/** The state a reader shows at `at`: an open link past its expiry reads as `expirado`. */
export const visibleEstado = (sql: Sql, at: Date): Fragment =>
  sql`(case when ${expired(sql, at)} then 'expirado' else estado end)`

/** The merchant `comercioId` is suspended. */
export const merchantSuspended = (sql: Sql, comercioId: string): Fragment =>
  sql`exists (select 1 from comercios where id = ${comercioId} and estado = 'suspendido')`

const checked = (move: Move) =>
  LinkMachine.canMove(move.from, move.to)
    ? Effect.void
    : Effect.die(new MoveRefused({ from: move.from, to: move.to }))

/**
 * Moves links `where` holds (and `estado = from`) to `to`, setting `set` besides; answers the
 * rows it moved with `returning` (default their id). A move the machine never makes dies first.
 */
export const move = <R extends object = { readonly id: string }>(input: {
  readonly move: Move
  readonly where: ReadonlyArray<Fragment>
  readonly set?: ReadonlyArray<Fragment>
  readonly returning?: string
}) =>
  Effect.gen(function* () {
    yield* checked(input.move)
    const sql = yield* PgClient.PgClient
    const set = sql.csv([sql`estado = ${input.move.to}`, ...(input.set ?? [])])
    return yield* sql<R>`
      update links set ${set}
      where ${sql.and([...input.where, sql`estado = ${input.move.from}`])}
      returning ${sql.unsafe(input.returning ?? "id")}`
  })

/** `Cancelar`: one open, unexpired link; none when it was no longer so. */
export const cancel = (id: string, t: Move, at: Date) =>
  Effect.flatMap(PgClient.PgClient, (sql) => move({ move: t, where: [sql`id = ${id}`, unexpired(sql, at)] }))

/**
 * `Cancelar` for the owner's open, unexpired links among `ids` (a bulk action's part), in one
 * statement: a link a payment already moved (`cobrando`...) is not `pendiente` and stays as it is.
 */
export const cancelMany = (owner: Owner, ids: ReadonlyArray<string>, at: Date) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({
      move: { from: "pendiente", to: "cancelado" },
      where: [
        sql`id = any(${ids}::uuid[])`,
        sql`comercio_id = ${owner.comercioId}`,
        sql`mode = ${owner.mode}`,
        unexpired(sql, at)
      ]
    })
  )

/** The owner's links among `ids` with the state readers see at `at` as `estado_visible`. */
export const byIds = <R extends object>(
  owner: Owner,
  ids: ReadonlyArray<string>,
  at: Date,
  columns: string
) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<R>`
      select ${sql.unsafe(columns)}, ${visibleEstado(sql, at)} as estado_visible from links
      where id = any(${ids}::uuid[]) and comercio_id = ${owner.comercioId} and mode = ${owner.mode}`
  )

/** `Cancelar` for every open, unexpired link of a batch, in one statement. */
export const cancelBatch = (
  lote: { readonly id: string; readonly comercioId: string; readonly mode: string },
  at: Date
) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({
      move: { from: "pendiente", to: "cancelado" },
      where: [
        sql`lote_id = ${lote.id}`,
        sql`comercio_id = ${lote.comercioId}`,
        sql`mode = ${lote.mode}`,
        unexpired(sql, at)
      ]
    })
  )

/** `Simular` `expirado`: the link expires now (its `expires_at` no later than `at`). */
export const expireNow = (id: string, t: Move, at: Date) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({ move: t, where: [sql`id = ${id}`], set: [sql`expires_at = least(expires_at, ${at})`] })
  )

/** `Expirar` for every open link past its expiry at `at` (the expiry job). */
export const expireDue = (at: Date) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({ move: { from: "pendiente", to: "expirado" }, where: [sql`expires_at <= ${at}`] })
  )

/**
 * `IniciarDebito`: the one submission that takes the open link to `cobrando`, if it is still
 * unexpired and its merchant not suspended; answers the row with `returning`.
 */
export const startDebit = <R extends object>(input: {
  readonly id: string
  readonly comercioId: string
  readonly t: Move
  readonly propina: number
  readonly altaCliente: boolean
  readonly nombre: string | null
  readonly at: Date
  readonly returning: string
}) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move<R>({
      move: input.t,
      where: [
        sql`id = ${input.id}`,
        unexpired(sql, input.at),
        sql`not ${merchantSuspended(sql, input.comercioId)}`
      ],
      set: [
        sql`metodo = 'debito'`,
        sql`propina = ${input.propina}`,
        sql`alta_cliente = ${input.altaCliente}`,
        sql`pagador_nombre = ${input.nombre}`
      ],
      returning: input.returning
    })
  )

/**
 * `AbrirTarjeta`: the one request that takes the open link to `cobrando` for the card form, if
 * it is still unexpired and its merchant not suspended; a debit racing it finds it taken.
 */
export const startCard = (input: {
  readonly id: string
  readonly comercioId: string
  readonly t: Move
  readonly propina: number
  readonly at: Date
}) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({
      move: input.t,
      where: [
        sql`id = ${input.id}`,
        unexpired(sql, input.at),
        sql`not ${merchantSuspended(sql, input.comercioId)}`
      ],
      set: [sql`metodo = 'tarjeta'`, sql`propina = ${input.propina}`]
    })
  )

/** `BancoAcepta`, `BancoSinRespuesta`: the link waits on the bank in `to`. */
export const waitOnBank = (id: string, t: Move) =>
  Effect.flatMap(PgClient.PgClient, (sql) => move({ move: t, where: [sql`id = ${id}`] }))

/** `BancoRechaza`, `TarjetaLiberada`: open again, without the attempt's payer data. */
export const reopen = (id: string, t: Move) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move({
      move: t,
      where: [sql`id = ${id}`],
      set: [sql`metodo = null`, sql`propina = 0`, sql`alta_cliente = false`, sql`pagador_nombre = null`]
    })
  )

/** The paid link's facts the payment recorder needs. */
export interface PaidRow {
  readonly monto: number
  readonly propina: number
  readonly moneda: string
  readonly concepto: string | null
  readonly pagador_nombre: string | null
  readonly alta_cliente: boolean
}

/** A move to `pagado` of the merchant's link, with its collection; none when another won. */
export const pay = (input: {
  readonly id: string
  readonly comercioId: string
  readonly t: Move
  readonly metodo: LinkMachine.Metodo | null
  readonly txnId: string
  readonly referencia: string
  readonly paidAt: Date
}) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    move<PaidRow>({
      move: input.t,
      where: [sql`id = ${input.id}`, sql`comercio_id = ${input.comercioId}`],
      set: [
        sql`metodo = ${input.metodo}`,
        sql`txn_id = ${input.txnId}`,
        sql`referencia_banco = ${input.referencia}`,
        sql`paid_at = ${input.paidAt}`
      ],
      returning: "monto, propina, moneda, concepto, pagador_nombre, alta_cliente"
    })
  )

/** A paid link's receipt code and the search text that includes it. */
export const setReceipt = (id: string, codigo: string, busqueda: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`update links set codigo_verificacion = ${codigo}, busqueda = ${busqueda} where id = ${id}`
  )

/** A link's `columns` by id (any merchant: the public pages); none when there is none. */
export const byId = <R extends object>(id: string, columns: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<R>`select ${sql.unsafe(columns)} from links where id = ${id}`
  )

/** The merchant's link of the mode by id, with `columns`. */
export const ownById = <R extends object>(
  owner: { readonly comercioId: string; readonly mode: Mode },
  id: string,
  columns: string
) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<R>`select ${sql.unsafe(columns)} from links
      where id = ${id} and comercio_id = ${owner.comercioId} and mode = ${owner.mode}`
  )

/** The merchant's link made with an idempotency key (of either mode), with `columns`. */
export const byIdempotencyKey = <R extends object>(comercioId: string, key: string | null, columns: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) =>
      sql<R>`select ${sql.unsafe(columns)} from links where comercio_id = ${comercioId} and idempotency_key = ${key}`
  )

/** The name the payer gave on the page, if any. */
export const payerName = (id: string) =>
  Effect.map(
    Effect.flatMap(
      PgClient.PgClient,
      (sql) => sql<{ pagador_nombre: string | null }>`select pagador_nombre from links where id = ${id}`
    ),
    (rows) => rows[0]?.pagador_nombre ?? null
  )

/** Whose links: a merchant in one mode. */
export interface Owner {
  readonly comercioId: string
  readonly mode: Mode
}

/** A batch's item links with `columns`, in the batch's order. */
export const batchItems = <R extends object>(owner: Owner, loteId: string, columns: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<R>`select ${sql.unsafe(columns)} from links
      where lote_id = ${loteId} and comercio_id = ${owner.comercioId} and mode = ${owner.mode}
      order by lote_pos`
  )

/** Per batch and visible state at `at`: how many items, their amount and their total. */
export const batchStats = (owner: Owner, loteIds: ReadonlyArray<string>, at: Date) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<{ lote_id: string; estado: string; n: number; monto: number; total: number }>`
      select lote_id, ${visibleEstado(sql, at)} as estado, count(*)::int as n,
        sum(monto)::bigint as monto, sum(monto + propina)::bigint as total
      from links
      where lote_id = any(${loteIds}::uuid[])
        and comercio_id = ${owner.comercioId} and mode = ${owner.mode}
      group by 1, 2`
  )

/** One batch item to insert. */
export interface NewBatchItem {
  readonly id: string
  readonly monto: number
  readonly concepto: string
  readonly clave: string
  readonly referencia: string | null
  /** JSON text, or null. */
  readonly cliente: string | null
  readonly busqueda: string
}

/**
 * A batch's item links in one statement, in key order (as link creation's, makeLinkInsert, so the
 * two never deadlock); a key already taken (any mode) inserts nothing for it. Answers the
 * positions inserted.
 */
export const insertBatchItems = (input: {
  readonly owner: Owner
  readonly loteId: string
  readonly origen: string
  readonly expiresAt: Date
  readonly at: Date
  readonly items: ReadonlyArray<NewBatchItem>
}) =>
  Effect.flatMap(PgClient.PgClient, (sql) => {
    const { owner, items } = input
    return sql<{ lote_pos: number }>`
      insert into links (id, comercio_id, mode, monto, concepto, expires_at, idempotency_key, origen,
        lote_id, lote_pos, referencia_externa, cliente, busqueda, created_at)
      select t.id, ${owner.comercioId}, ${owner.mode}, t.monto, t.concepto, ${input.expiresAt}, t.clave, ${input.origen},
        ${input.loteId}, t.pos, t.referencia, t.cliente, t.busqueda, ${input.at}
      from unnest(
        ${items.map((item) => item.id)}::uuid[],
        ${items.map((item) => item.monto)}::bigint[],
        ${items.map((item) => item.concepto)}::text[],
        ${items.map((item) => item.clave)}::text[],
        ${items.map((_, index) => index)}::int[],
        ${items.map((item) => item.referencia)}::text[],
        ${items.map((item) => item.cliente)}::jsonb[],
        ${items.map((item) => item.busqueda)}::text[]
      ) as t(id, monto, concepto, clave, pos, referencia, cliente, busqueda)
      order by t.clave
      on conflict (comercio_id, idempotency_key) where idempotency_key is not null do nothing
      returning lote_pos`
  })

/** SPEC's link list filters, as `links/LinkFilters.ts` reads them from the query string. */
export interface LinkQuery {
  readonly estados: ReadonlyArray<LinkMachine.LinkState> | null
  readonly desde: Date | null
  readonly hasta: Date | null
  readonly palabras: ReadonlyArray<string>
  readonly min: number | null
  readonly max: number | null
  readonly conPropina: boolean | null
  readonly origen: string | null
  /** Paid links of which all (`reembolsado`) or part (`reembolsado_parcial`) went back. */
  readonly reembolso: Reembolso.EstadoReembolso | null
  readonly limit: number
  readonly offset: number
  /** A link of the owner's: the page starts after it (`starting_after`). */
  readonly startingAfter: string | null
  /** The order (`orden`): newest first when absent. */
  readonly orden?: "reciente" | "antiguo" | "monto_desc" | "monto_asc"
}

/** The `ORDER BY` of each list order; every one ends on the id, so pages never overlap. */
const ORDER_BY = {
  reciente: "created_at desc, id desc",
  antiguo: "created_at asc, id asc",
  monto_desc: "monto desc, created_at desc, id desc",
  monto_asc: "monto asc, created_at desc, id desc"
} as const

/**
 * Links whose state as readers see it at `at` is one of `estados` ({@link visibleEstado}),
 * written so an index on `estado` serves it: an open link past its expiry counts as `expirado`,
 * not as `pendiente`.
 */
export const estadoIn = (sql: Sql, estados: ReadonlyArray<LinkMachine.LinkState>, at: Date): Fragment => {
  const pendiente = estados.includes("pendiente")
  const expirado = estados.includes("expirado")
  if (pendiente === expirado) return sql`estado = any(${estados})`
  const others = estados.filter((e) => e !== "pendiente")
  return sql`(estado = any(${others}) or (estado = 'pendiente' and ${pendiente ? unexpired(sql, at) : sql`expires_at <= ${at}`}))`
}

/**
 * What went back to the payer of the link `linkId` (a column or a value), in cents: the refunds
 * and reversals of its settled charge that the bank paid, as core's `Reembolso.devuelto` counts
 * them (one still being sent counts for nothing).
 */
export const devuelto = (sql: Sql, linkId: Fragment): Fragment =>
  sql`(select coalesce(sum(d.monto), 0) from transacciones c
    join transacciones d on d.original_id = c.id
    where c.link_id = ${linkId} and c.operacion = 'cobro' and c.estado = 'LIQUIDADA'
      and d.operacion in ('devolucion', 'reverso') and d.estado = 'LIQUIDADA'
      and d.fase is distinct from 'enviando')`

/** What went back of each of the paid links `ids`, in cents; a link with nothing back is absent. */
export const devueltos = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    ids.length === 0
      ? Effect.succeed(new Map<string, number>())
      : Effect.map(
          sql<{ link_id: string; devuelto: string }>`
            select c.link_id, sum(d.monto)::text as devuelto from transacciones c
            join transacciones d on d.original_id = c.id
            where c.link_id = any(${ids}::uuid[]) and c.operacion = 'cobro' and c.estado = 'LIQUIDADA'
              and d.operacion in ('devolucion', 'reverso') and d.estado = 'LIQUIDADA'
              and d.fase is distinct from 'enviando'
            group by c.link_id`,
          (rows) => new Map(rows.map((r) => [String(r.link_id), Number(r.devuelto)]))
        )
  )

/** The statement of {@link list}, as Postgres plans it (its tests read the plan). */
export const listStatement = <R extends object>(
  sql: Sql,
  owner: Owner,
  q: LinkQuery,
  at: Date,
  columns: string
) => {
  const clauses = filterClauses(sql, owner, q, at)
  // After the cursor's link in the list's order; none when it is not one of the owner's.
  if (q.startingAfter !== null)
    clauses.push(sql`(created_at, id) < (select created_at, id from links
        where id = ${q.startingAfter} and comercio_id = ${owner.comercioId} and mode = ${owner.mode})`)
  // Planned with its values: a generic plan would read a big merchant's links by a scan.
  // The page is chosen on the ordering keys alone, then only its rows are read whole: a word
  // in thousands of links sorts thousands of (created_at, id) pairs, not thousands of wide rows,
  // and a deep offset skips entries of the ordering index instead of rows of the table.
  const order = sql.unsafe(ORDER_BY[q.orden ?? "reciente"])
  return sql<R>`
      ${sql.unsafe(PLANNED_EACH_TIME)} select ${sql.unsafe(columns)} from links where id in (
        select id from links where ${sql.and(clauses)}
        order by ${order} limit ${q.limit} offset ${q.offset})
      order by ${order}`
}

const ID_FROM = "00000000-0000-0000-0000-000000000000"
const ID_TO = "ffffffff-ffff-ffff-ffff-ffffffffffff"

/**
 * The ids a `q` word can begin, as a range of the primary key: `q` finds a link by its id or
 * the id's beginning (the 8 characters the portal shows), through the key's index. The id is
 * not in `busqueda`: its trigrams cost every link creation about 30 µs of Postgres's CPU.
 * `undefined` for a word no id begins with.
 */
export const idRange = (word: string): { readonly from: string; readonly to: string } | undefined => {
  if (word.length > ID_FROM.length) return undefined
  for (let i = 0; i < word.length; i++) {
    const c = word[i] as string
    if (ID_FROM[i] === "-" ? c !== "-" : !/[0-9a-f]/.test(c)) return undefined
  }
  return { from: word + ID_FROM.slice(word.length), to: word + ID_TO.slice(word.length) }
}

/** The owner's links matching `q`'s filters (not its page) at `at`: the list's `WHERE`. */
const filterClauses = (
  sql: Sql,
  owner: Owner,
  q: Omit<LinkQuery, "limit" | "offset" | "startingAfter" | "orden">,
  at: Date
): Array<Fragment> => {
  const when = sql`coalesce(paid_at, created_at)`
  const clauses: Array<Fragment> = [sql`comercio_id = ${owner.comercioId}`, sql`mode = ${owner.mode}`]
  if (q.estados !== null) clauses.push(estadoIn(sql, q.estados, at))
  if (q.desde !== null) clauses.push(sql`${when} >= ${q.desde}`)
  if (q.hasta !== null) clauses.push(sql`${when} < ${q.hasta}`)
  for (const word of q.palabras) {
    const text = sql`busqueda like ${`%${word.replace(/[\\%_]/g, "\\$&")}%`}`
    const ids = idRange(word)
    clauses.push(
      ids === undefined ? text : sql`(${text} or id between ${ids.from}::uuid and ${ids.to}::uuid)`
    )
  }
  if (q.min !== null) clauses.push(sql`monto >= ${q.min}`)
  if (q.max !== null) clauses.push(sql`monto <= ${q.max}`)
  if (q.conPropina !== null) clauses.push(q.conPropina ? sql`propina > 0` : sql`propina = 0`)
  if (q.origen !== null) clauses.push(sql`origen = ${q.origen}`)
  // Core's Reembolso.estadoDe over the paid amount (`monto + propina`) and what went back.
  if (q.reembolso !== null)
    clauses.push(
      q.reembolso === "reembolsado"
        ? sql`estado = 'pagado' and ${devuelto(sql, sql`links.id`)} >= monto + propina`
        : sql`estado = 'pagado' and ${devuelto(sql, sql`links.id`)} between 1 and monto + propina - 1`
    )
  return clauses
}

/** How many of the owner's links match `q`'s filters at `at`, paging aside (`GET /links/total`). */
export const count = (
  owner: Owner,
  q: Omit<LinkQuery, "limit" | "offset" | "startingAfter" | "orden">,
  at: Date
) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    Effect.map(
      sql<{ n: number }>`
        ${sql.unsafe(PLANNED_EACH_TIME)} select count(*)::int as n from links
        where ${sql.and(filterClauses(sql, owner, q, at))}`,
      (rows) => rows[0]?.n ?? 0
    )
  )

/** The owner's links matching `q` at `at` (states as readers see them), newest first. */
export const list = <R extends object>(owner: Owner, q: LinkQuery, at: Date, columns: string) =>
  Effect.flatMap(PgClient.PgClient, (sql) => listStatement<R>(sql, owner, q, at, columns))

/** Whether a link `id` exists (any merchant, any state). */
export const exists = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ id: string }>`select id from links where id = ${id}`, (rows) => rows.length > 0)
  )

/**
 * A link opened from the pay button (`boton.js`) or from its WhatsApp share link takes that
 * `origen`, once: only a link still `api` (made through a key) changes; one made in the portal
 * or by the merchant's own page keeps its origin, and the first opening wins.
 */
export const markOpenedFrom = (id: string, origen: Extract<LinkRequest.Origen, "boton" | "whatsapp">) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`update links set origen = ${origen} where id = ${id} and origen = 'api'`
  )

/**
 * The payment attempts still waiting on the bank whose link is still in flight, oldest first
 * (up to 100): what the payment page's reconciler asks the bank about.
 */
export const attemptsInFlight = Effect.flatMap(
  PgClient.PgClient,
  (sql) => sql<{ id: string; link_id: string }>`
    select i.id, i.link_id from intentos_pago i join links l on l.id = i.link_id
    where i.estado in ('ENVIANDO', 'ACEPTADA', 'PENDIENTE', 'DESCONOCIDA')
      and l.estado = any(${LinkMachine.InFlightStates})
    order by i.created_at limit 100`
)

/** A link's split and its merchant's commission, for a test link's simulated settlement. */
export const splitAndCommission = (linkId: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<{ comision_bp: number | null; split: ReadonlyArray<unknown> | null }>`
      select c.comision_bp, l.split from links l join comercios c on c.id = l.comercio_id
      where l.id = ${linkId}`
  )

/** A paid link as its settlement needs it, with its merchant's commission and account. */
export interface SettlingRow {
  readonly comercio_id: string
  readonly mode: Mode
  readonly monto: number
  readonly propina: number
  readonly comision_bp: number | null
  readonly cuenta_liquidacion: Ports.Party | null
  readonly split: ReadonlyArray<unknown> | null
}

/** The link `linkId` if it is paid, as its settlement needs it; none otherwise. */
export const paidForSettlement = (linkId: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<SettlingRow>`
      select l.comercio_id, l.mode, l.monto, l.propina, c.comision_bp, c.cuenta_liquidacion, l.split
      from links l join comercios c on c.id = l.comercio_id
      where l.id = ${linkId} and l.estado = 'pagado'`
  )

/** Stores a link's `reparto` (the share-out of its split) as core builds it. */
export const setReparto = (linkId: string, reparto: unknown) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`update links set reparto = ${sql.json(reparto)} where id = ${linkId}`
  )

/**
 * Whether the split of the link `linkId` already paid (or is paying) a beneficiary: false for a
 * link without a reparto, or none. A boolean expression, for a refund's checks.
 */
export const splitPaidOut = (sql: Sql, linkId: string): Fragment =>
  sql`coalesce((select l.reparto is not null and (
            coalesce((l.reparto->>'monto_repartido')::bigint, 0) > 0
            or exists (select 1 from jsonb_array_elements(coalesce(l.reparto->'beneficiarios', '[]'::jsonb)) b
              where b->>'liquidacion_txn_id' is not null or b->>'estado' = 'pagado'))
          from links l where l.id = ${linkId}), false)`

/** The amounts (monto + propina) of a merchant's links of the mode still in flight: a cap's usage. */
export const inFlightSum = (sql: Sql, comercioId: string, mode: Mode): Fragment =>
  sql`(select coalesce(sum(monto + propina), 0) from links
          where comercio_id = ${comercioId} and mode = ${mode} and estado = any(${LinkMachine.InFlightStates}))`

/**
 * Counts a verification of the receipt `codigo` (a transaction's) and answers it with its
 * merchant's name and its link's `concepto` and `referencia_externa`, if it has a link.
 */
export const verifyReceipt = <R extends object>(codigo: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<R>`
          with hit as (
            update transacciones set verificaciones = verificaciones + 1,
              primera_verificacion = coalesce(primera_verificacion, now())
            where codigo_verificacion = ${codigo}
            returning *
          )
          select hit.monto, hit.propina, hit.moneda, hit.mode, hit.estado, hit.codigo_verificacion,
            hit.referencia_banco, hit.liquidada_at, hit.created_at, hit.verificaciones, hit.primera_verificacion,
            c.nombre as comercio, l.concepto, l.referencia_externa
          from hit join comercios c on c.id = hit.comercio_id left join links l on l.id = hit.link_id`
  )

/*
 * The fast insert of single links (links/CreateLink.ts, POST /links): the rows of concurrent
 * creations committed together (Coalesce.ts), one statement, one transaction, one answer per
 * row. Its SQL text and the way it runs (prepared, on the pool, platform/Prepared.ts) are as
 * measured: keep both. A row is not inserted, and its answer is `undefined`, when its merchant
 * is suspended or its idempotency key already names a link (the caller then looks that link up
 * with {@link byIdempotencyKey}).
 */
/** A link's columns as the insert takes them; JSON columns as text. */
export interface NewLink {
  readonly id: string
  readonly comercioId: string
  readonly mode: "test" | "live"
  readonly monto: number
  readonly concepto: string
  readonly expiresAt: Date
  readonly successUrl: string | null
  readonly failureUrl: string | null
  readonly metadata: string
  readonly idempotencyKey: string | null
  readonly split: string | null
  readonly busqueda: string
  readonly createdAt: Date
  /** Where the link was made; the API's own routes make `api`. */
  readonly origen: LinkRequest.Origen
}

/** The JSON columns as Postgres keeps them (its key order), as every later read shows them. */
export type Inserted = Pick<LinkRow, "metadata" | "split">

const COLUMNS = `
  insert into links (id, comercio_id, mode, monto, concepto, expires_at, success_url, failure_url,
    metadata, idempotency_key, split, busqueda, created_at, origen)`

const ONE_ROW = `
  select $1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::jsonb, $12, $13, $14
  where not exists (select 1 from comercios where id = $2 and estado = 'suspendido')`

const ROWS = `
  select t.id, t.comercio_id, t.mode, t.monto, t.concepto, t.expires_at, t.success_url,
    t.failure_url, t.metadata::jsonb, t.idempotency_key, t.split::jsonb, t.busqueda, t.created_at,
    t.origen
  from unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[],
    $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[],
    $14::text[])
    as t(id, comercio_id, mode, monto, concepto, expires_at, success_url, failure_url, metadata,
      idempotency_key, split, busqueda, created_at, origen)
  where not exists (select 1 from comercios c where c.id = t.comercio_id and c.estado = 'suspendido')`

const CONFLICT = `
  on conflict (comercio_id, idempotency_key) where idempotency_key is not null do nothing`

/**
 * The statements, with and without an idempotency key among their rows. Without one no row can
 * conflict, so Postgres is spared the speculative insertion ON CONFLICT makes of every row and
 * the sort that orders keys (about 3.5 µs of its CPU per row in statements of six).
 */
const ONE = `${COLUMNS} ${ONE_ROW} ${CONFLICT} returning metadata, split`
const ONE_UNKEYED = `${COLUMNS} ${ONE_ROW} returning metadata, split`
const MANY = `${COLUMNS} ${ROWS}
  order by t.comercio_id, t.idempotency_key ${CONFLICT}
  returning id, metadata, split`
const MANY_UNKEYED = `${COLUMNS} ${ROWS} returning id, metadata, split`

const OWN = "select metadata, split from links where id = $1"

const values = (l: NewLink) => [
  l.id,
  l.comercioId,
  l.mode,
  l.monto,
  l.concepto,
  l.expiresAt,
  l.successUrl,
  l.failureUrl,
  l.metadata,
  l.idempotencyKey,
  l.split,
  l.busqueda,
  l.createdAt,
  l.origen
]

/** Rows per statement: enough for every connection a worker serves at once. */
const MAX_ROWS = 256
/**
 * Statements under way at once, of the pool's connections (20): a flood of creations leaves
 * the rest to every other query, and its rows wait for the next statement instead.
 */
const IN_FLIGHT = 4

export const makeLinkInsert = (pool: PgPool["Type"]) => {
  const one = async (link: NewLink) =>
    (await pool.run<Inserted>(link.idempotencyKey === null ? ONE_UNKEYED : ONE, values(link)))[0]
  const own = async (link: NewLink) => (await pool.run<Inserted>(OWN, [link.id]))[0]
  return coalesce<NewLink, Inserted | undefined>({
    max: MAX_ROWS,
    inFlight: IN_FLIGHT,
    one,
    // Still unknown when the insert fails on the id itself: a statement cut off mid-commit.
    retry: async (link) =>
      (await own(link)) ?? one(link).catch(async (e) => (await own(link)) ?? Promise.reject(e)),
    many: async (links) => {
      const rowsIn = links.map(values)
      const columns = Array.from({ length: 14 }, (_, i) => rowsIn.map((row) => row[i]))
      const keyed = links.some((l) => l.idempotencyKey !== null)
      const rows = await pool.run<Inserted & { id: string }>(keyed ? MANY : MANY_UNKEYED, columns)
      const byId = new Map(rows.map((r) => [r.id, r]))
      return links.map((l) => {
        const row = byId.get(l.id)
        return row === undefined ? undefined : { metadata: row.metadata, split: row.split }
      })
    }
  })
}
