/**
 * The outbox on a real database: a notice's data is checked against its schema before anything
 * is written; a written notice makes exactly the deliveries, jobs, bodies and notification the
 * `eventos` trigger of migration 0003 made (the body byte for byte its `switch_evento_sobre`);
 * a repeated `dedupe` writes nothing; a failing caller's transaction takes it all back.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase } from "../../test/harness.js"
import * as Outbox from "./Outbox.js"
import { PgLive } from "./Sql.js"

let db: Pg.Client
let databaseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<PgClient.PgClient, never>

beforeAll(async () => {
  const url = await freshDatabase()
  databaseUrl = url
  db = new Pg.Client({ connectionString: url })
  await db.connect()
  runtime = ManagedRuntime.make(PgLive(url, { maxConnections: 4 }).pipe(Layer.orDie))
})

afterAll(async () => {
  await db.end()
  await runtime.dispose()
})

const merchant = async () => {
  const id = randomUUID()
  await db.query(
    `insert into comercios (id, codigo, nombre, identificacion, email, estado)
     values ($1, $2, 'Tienda', 'J123', 'a@b.ve', 'activo')`,
    [id, `c${id.slice(0, 8)}`]
  )
  return id
}

const webhook = async (
  comercioId: string,
  eventos: ReadonlyArray<string>,
  estado = "activo",
  deleted = false
) => {
  const id = randomUUID()
  await db.query(
    `insert into webhooks (id, comercio_id, url, eventos, estado, secret, deleted_at)
     values ($1, $2, 'https://example.com/hook', $3, $4, 'sellado', $5)`,
    [id, comercioId, eventos, estado, deleted ? new Date() : null]
  )
  return id
}

const pagado = (linkId: string, extra: Record<string, unknown> = {}) => ({
  link_id: linkId,
  monto: 150.5,
  propina: 2.25,
  total: 152.75,
  mode: "live" as const,
  referencia: 'Ref "9" ñ\n\u0001',
  txn_id: randomUUID(),
  codigo_verificacion: "SW-YHD5J-7MYQF",
  pagador: { alta_cliente: true },
  ...extra
})

const count = async (table: string, where: string, values: Array<unknown>) =>
  Number((await db.query(`select count(*)::int as n from ${table} where ${where}`, values)).rows[0].n)

/** The notice body as migration 0003's `switch_evento_sobre` built it, from the stored row. */
const bodyAsTheTriggerBuiltIt = async (eventoId: string) =>
  (
    await db.query(
      `select json_build_object(
         'id', 'evt_' || e.id,
         'evento', e.evento,
         'creado_en', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', e.data
       )::text as sobre
       from eventos e where id = $1`,
      [eventoId]
    )
  ).rows[0].sobre as string

describe("Outbox.write", () => {
  it("refuses a notice whose data fails its schema, before writing anything", async () => {
    const comercioId = await merchant()
    await webhook(comercioId, ["*"])
    const linkId = randomUUID()
    const attempts = [
      pagado(linkId, { monto: "150.50" }),
      pagado(linkId, { pagador: {} }),
      pagado(linkId, { sobrante: 1 })
    ]
    for (const data of attempts) {
      const exit = await runtime.runPromiseExit(
        Outbox.write({
          comercioId,
          mode: "live",
          evento: "link.pagado",
          data: data as never,
          dedupe: `link.pagado:${linkId}`,
          at: new Date()
        })
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const defect = Option.getOrThrow(Cause.dieOption(exit.cause))
        expect(defect).toBeInstanceOf(Outbox.NoticeRefused)
      }
    }
    expect(await count("eventos", "comercio_id = $1", [comercioId])).toBe(0)
    expect(await count("webhook_entregas", "comercio_id = $1", [comercioId])).toBe(0)
  })

  it("writes the event, one delivery and job per matching active webhook, and notifies the streams", async () => {
    const comercioId = await merchant()
    const other = await merchant()
    const all = await webhook(comercioId, ["*"])
    const pagos = await webhook(comercioId, ["transaccion.aprobada", "link.pagado"])
    await webhook(comercioId, ["link.acreditado"])
    await webhook(comercioId, ["*"], "inactivo")
    await webhook(comercioId, ["*"], "activo", true)
    await webhook(other, ["*"])

    const listener = new Pg.Client({ connectionString: databaseUrl })
    await listener.connect()
    const heard: Array<string> = []
    listener.on("notification", (n) => heard.push(n.payload ?? ""))
    await listener.query("listen switch_eventos")

    const linkId = randomUUID()
    const at = new Date("2026-03-02T15:04:05.678Z")
    const id = await runtime.runPromise(
      Outbox.write({
        comercioId,
        mode: "live",
        evento: "link.pagado",
        data: pagado(linkId),
        dedupe: `link.pagado:${linkId}`,
        at
      })
    )
    expect(id).not.toBeNull()

    const deliveries = (
      await db.query(
        `select id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, estado, intentos,
           proximo_intento is not null as programada
         from webhook_entregas where evento_id = $1 order by webhook_id`,
        [id]
      )
    ).rows
    expect(deliveries.map((d) => d.webhook_id).sort()).toEqual([all, pagos].sort())
    const body = await bodyAsTheTriggerBuiltIt(id as string)
    expect(body).toContain('"creado_en" : "2026-03-02T15:04:05.678Z"')
    for (const d of deliveries) {
      expect(d).toMatchObject({
        comercio_id: comercioId,
        evento: "link.pagado",
        mode: "live",
        estado: "pendiente",
        intentos: 0,
        programada: true
      })
      expect(d.cuerpo).toBe(body)
    }
    expect(JSON.parse(body)).toEqual({
      id: `evt_${id}`,
      evento: "link.pagado",
      creado_en: "2026-03-02T15:04:05.678Z",
      data: pagado(linkId, { txn_id: JSON.parse(body).data.txn_id })
    })

    const jobs = (
      await db.query(
        `select t.identifier as task_identifier, j.key, j.max_attempts, j.payload
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
         where j.key = any($1) order by j.key`,
        [deliveries.map((d) => `entrega:${d.id}`)]
      )
    ).rows
    expect(jobs).toEqual(
      deliveries
        .map((d) => ({
          task_identifier: "webhook_entrega",
          key: `entrega:${d.id}`,
          max_attempts: 5,
          payload: { id: d.id, intento: 1 }
        }))
        .sort((a, b) => a.key.localeCompare(b.key))
    )

    await new Promise((r) => setTimeout(r, 200))
    expect(heard).toEqual([`${comercioId}:live`])

    // The same dedupe again: nothing more, not even a notification.
    const again = await runtime.runPromise(
      Outbox.write({
        comercioId,
        mode: "live",
        evento: "link.pagado",
        data: pagado(linkId),
        dedupe: `link.pagado:${linkId}`,
        at: new Date()
      })
    )
    expect(again).toBeNull()
    expect(await count("eventos", "comercio_id = $1", [comercioId])).toBe(1)
    expect(await count("webhook_entregas", "comercio_id = $1", [comercioId])).toBe(2)
    await new Promise((r) => setTimeout(r, 200))
    expect(heard).toHaveLength(1)
    await listener.end()
  })

  it("is part of the caller's transaction: a caller that fails leaves no event and no delivery", async () => {
    const comercioId = await merchant()
    await webhook(comercioId, ["*"])
    const linkId = randomUUID()
    const exit = await runtime.runPromiseExit(
      Effect.flatMap(PgClient.PgClient, (sql) =>
        sql.withTransaction(
          Effect.zipRight(
            Outbox.write({
              comercioId,
              mode: "test",
              evento: "link.pagado",
              data: pagado(linkId, { mode: "test" }),
              dedupe: null,
              at: new Date()
            }),
            Effect.fail("the change itself failed")
          )
        )
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(await count("eventos", "comercio_id = $1", [comercioId])).toBe(0)
    expect(await count("webhook_entregas", "comercio_id = $1", [comercioId])).toBe(0)
  })

  it("builds the same body for any stored event, written before this module or after", async () => {
    const comercioId = await merchant()
    // A row as an older server wrote it: default created_at (microseconds), jsonb data.
    const old = randomUUID()
    await db.query(
      `insert into eventos (id, comercio_id, mode, evento, data)
       values ($1, $2, 'test', 'link.acreditado', $3::jsonb)`,
      [old, comercioId, JSON.stringify({ reparto: { a: [1, 2.5, null] }, link_id: "x", z: "ü\t" })]
    )
    const [row] = (
      await db.query("select id, evento, created_at, data::text as data from eventos where id = $1", [old])
    ).rows
    expect(Outbox.envelope(row)).toBe(await bodyAsTheTriggerBuiltIt(old))
  })
})
