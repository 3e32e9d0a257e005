/**
 * Retention of the tables that only grow (platform/Retention.ts), on a real database: old final
 * deliveries and old events go; recent ones, pending deliveries and the events they carry stay.
 */
import { randomUUID } from "node:crypto"
import { ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { ACTIVITY_DAYS, DELIVERIES_DAYS, EVENTS_DAYS, pruneGrowing } from "./Retention.js"
import { PgLive } from "./Sql.js"

describe("retention of growing tables", () => {
  let server: TestServer
  let db: Pg.Client
  beforeAll(async () => {
    server = await startServer({ databaseUrl: await freshDatabase() })
    db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
  })
  afterAll(async () => {
    await db.end()
    await server.close()
  })

  it("deletes final deliveries past 90 days and events past 400 days, nothing a delivery still waits on", async () => {
    const { codigo } = await registerMerchant(server.url)
    const comercio = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
    const webhook = randomUUID()
    await db.query(
      `insert into webhooks (id, comercio_id, url, eventos, secret) values ($1, $2, 'https://x.example/h', '{}', 'sealed')`,
      [webhook, comercio]
    )
    const event = async (daysAgo: number) => {
      const id = randomUUID()
      await db.query(
        `insert into eventos (id, comercio_id, mode, evento, data, created_at)
         values ($1, $2, 'test', 'link.pagado', '{}', now() - make_interval(days => $3))`,
        [id, comercio, daysAgo]
      )
      return id
    }
    const delivery = async (eventoId: string, estado: string, daysAgo: number) => {
      const id = randomUUID()
      await db.query(
        `insert into webhook_entregas (id, webhook_id, comercio_id, evento_id, evento, mode, cuerpo, estado, created_at)
         values ($1, $2, $3, $4, 'link.pagado', 'test', '{}', $5, now() - make_interval(days => $6))`,
        [id, webhook, comercio, eventoId, estado, daysAgo]
      )
      return id
    }
    const oldEvent = await event(EVENTS_DAYS + 1)
    const waitedOn = await event(EVENTS_DAYS + 1)
    const recentEvent = await event(EVENTS_DAYS - 1)
    const oldDelivered = await delivery(oldEvent, "entregado", DELIVERIES_DAYS + 1)
    const oldPending = await delivery(waitedOn, "pendiente", DELIVERIES_DAYS + 1)
    const recentFailed = await delivery(recentEvent, "fallido", DELIVERIES_DAYS - 1)

    const runtime = ManagedRuntime.make(PgLive(server.databaseUrl))
    try {
      // The server's own housekeeping may prune these rows first, so the rows left are checked,
      // not this call's counts.
      await runtime.runPromise(pruneGrowing)
    } finally {
      await runtime.dispose()
    }
    const left = async (table: string, ids: Array<string>) =>
      (await db.query(`select id from ${table} where id = any($1)`, [ids])).rows.map((r) => r.id).sort()
    expect(await left("webhook_entregas", [oldDelivered, oldPending, recentFailed])).toEqual(
      [oldPending, recentFailed].sort()
    )
    expect(await left("eventos", [oldEvent, waitedOn, recentEvent])).toEqual([waitedOn, recentEvent].sort())
  })

  it("deletes audit rows past 400 days, and keeps the recent ones", async () => {
    const { codigo } = await registerMerchant(server.url)
    const comercio = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
    const audit = async (daysAgo: number) =>
      (
        await db.query(
          `insert into actividad (comercio_id, email, accion, ip, resultado, created_at)
           values ($1, 'a@b.c', 'POST /switch/v1/links', '127.0.0.1', 201, now() - make_interval(days => $2))
           returning id`,
          [comercio, daysAgo]
        )
      ).rows[0].id as string
    const old = await audit(ACTIVITY_DAYS + 1)
    const recent = await audit(ACTIVITY_DAYS - 1)
    const runtime = ManagedRuntime.make(PgLive(server.databaseUrl))
    try {
      await runtime.runPromise(pruneGrowing)
    } finally {
      await runtime.dispose()
    }
    const left = (await db.query("select id from actividad where id = any($1)", [[old, recent]])).rows
    expect(left.map((r) => r.id)).toEqual([recent])
  })
})
