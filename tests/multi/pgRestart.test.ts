/**
 * The database goes away under running servers and comes back (support/multi.ts): Postgres is
 * restarted (a fast shutdown cuts every session, the job queues' included), and PgBouncer is
 * killed with -9 and started again. Neither server process dies: once the database is back both
 * answer `/readyz` 200, serve requests, and their job queues run again (a webhook notice made
 * after the restart reaches the receiver, and one made while the queue was cut off too).
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Bank,
  eventually,
  liveMerchant,
  newLink,
  newWebhook,
  openPage,
  type Receiver,
  startBank,
  startReceiver
} from "../support/live.js"
import { type Multi, startMulti } from "../support/multi.js"

let multi: Multi
let receiver: Receiver
let bank: Bank

beforeAll(async () => {
  bank = await startBank()
  receiver = await startReceiver()
  multi = await startMulti({
    SWITCH_BANK_URL: bank.url,
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
    SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.01",
    SWITCH_API_POR_MINUTO: "100000"
  })
})
afterAll(async () => {
  await multi?.stop()
  await receiver?.close()
  await bank?.close()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A live link paid on its page through `base` (its `link.pagado` goes to the webhook); returns its id. */
const paidLink = async (base: string, key: string) => {
  const id = await newLink(base, key, 7, "Tras reinicio")
  const payer = await bank.payer()
  const page = await openPage(base, id)
  const paid = await page.pay(payer, await bank.code(payer, 700))
  expect(paid.body.estado, JSON.stringify(paid.body)).toBe("pagado")
  return id
}

const noticeFor = (linkId: string) =>
  eventually(
    `link.pagado of ${linkId} at the receiver`,
    () => receiver.received.some((n) => n.json?.evento === "link.pagado" && n.json?.data?.link_id === linkId),
    60_000,
    200
  )

const bothReady = () =>
  Promise.all(
    multi.servers.map((s) =>
      eventually(
        `${s.name} ready again`,
        async () =>
          (await fetch(`${s.url}/readyz`).then(
            (r) => r.status,
            () => 0
          )) === 200,
        60_000,
        200
      )
    )
  )

describe("the database restarts under running servers", () => {
  it("a Postgres restart kills neither server; both serve again and their queues deliver", async () => {
    const m = await liveMerchant(multi.url, "multi_reinicio")
    await newWebhook(multi.url, m.liveKey, receiver.url)
    await noticeFor(await paidLink(multi.url, m.liveKey))

    await multi.pg.stop("fast")
    try {
      // Down long enough for every poll and heartbeat to fail a few times.
      await sleep(4_000)
      for (const s of multi.servers) {
        expect(s.proc().alive(), `${s.name}:\n${s.output()}`).toBe(true)
        expect((await fetch(`${s.url}/readyz`)).status, s.name).toBe(503)
        expect((await fetch(`${s.url}/healthz`)).status, s.name).toBe(200)
      }
    } finally {
      await multi.pg.start()
    }
    await bothReady()
    for (const s of multi.servers) expect(s.proc().alive(), `${s.name}:\n${s.output()}`).toBe(true)

    // Each server's queue runs again: a notice made through each one is delivered.
    for (const s of multi.servers) await noticeFor(await paidLink(s.url, m.liveKey))
    // Nothing crashed afterwards either.
    await sleep(2_000)
    for (const s of multi.servers) {
      expect(s.proc().alive(), `${s.name}:\n${s.output()}`).toBe(true)
      expect(s.output()).not.toMatch(/unhandled|uncaught/i)
    }
  })

  it("PgBouncer killed with -9 and started again: both servers serve again", async () => {
    const m = await liveMerchant(multi.url, "multi_bouncer")
    await newWebhook(multi.url, m.liveKey, receiver.url)
    await multi.bouncer.kill9()
    try {
      await sleep(2_000)
      for (const s of multi.servers) {
        expect(s.proc().alive(), `${s.name}:\n${s.output()}`).toBe(true)
        expect((await fetch(`${s.url}/readyz`)).status, s.name).toBe(503)
      }
    } finally {
      await multi.bouncer.start()
    }
    await bothReady()
    for (const s of multi.servers) await noticeFor(await paidLink(s.url, m.liveKey))
    for (const s of multi.servers) expect(s.proc().alive(), `${s.name}:\n${s.output()}`).toBe(true)
  })

  it("Postgres restarted while a server's job queue is starting: the server lives, its queue starts once Postgres is back", async () => {
    const m = await liveMerchant(multi.url, "multi_arranque")
    await newWebhook(multi.url, m.liveKey, receiver.url)
    const [a] = multi.servers
    await a.kill9()
    // graphile-worker's cron reads its table first thing; a lock holds that read until Postgres
    // goes down under it, as a restart at that moment would.
    const locker = new Pg.Client({ connectionString: multi.pg.url() })
    locker.on("error", () => undefined)
    await locker.connect()
    await locker.query("begin")
    await locker.query("lock table graphile_worker._private_known_crontabs in access exclusive mode")
    await a.start()
    const watcher = new Pg.Client({ connectionString: multi.pg.url() })
    watcher.on("error", () => undefined)
    await watcher.connect()
    // Waits (at most 5 s) for a's runner to be blocked there, if it reads that table at all.
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(100)) {
      const blocked = await watcher.query(
        "select 1 from pg_stat_activity where application_name = 'switch-jobs' and wait_event_type = 'Lock'"
      )
      if (blocked.rowCount !== 0) break
    }
    await watcher.end()
    await multi.pg.stop("fast")
    try {
      await sleep(3_000)
      expect(a.proc().alive(), a.output()).toBe(true)
      expect(a.output()).not.toMatch(/unhandled|uncaught/i)
    } finally {
      await multi.pg.start()
    }
    await bothReady()
    await noticeFor(await paidLink(a.url, m.liveKey))
    expect(a.proc().alive(), a.output()).toBe(true)
  })
})
