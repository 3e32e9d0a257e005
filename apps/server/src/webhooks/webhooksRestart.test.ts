/**
 * Durability of webhook delivery across kill -9: the built server (`dist/main.js`, build it
 * first with `npx turbo run build`) on one database, killed and started again.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freshDatabase, OWN_ACCOUNT, registerMerchant } from "../../test/harness.js"
import {
  eventually,
  paySimulated,
  query,
  type Receiver,
  signaturesValid,
  startReceiver,
  writeEvent
} from "../../test/webhooksReceiver.js"
import { freePort } from "../platform/Postgres.js"

const MAIN = resolve(__dirname, "../../dist/main.js")

interface Proc {
  readonly child: ChildProcess
  readonly url: string
}

const children: Array<ChildProcess> = []
let databaseUrl: string
let receiver: Receiver

const start = async (): Promise<Proc> => {
  const port = await freePort()
  let output = ""
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SWITCH_LOG_LEVEL: "warning",
      SWITCH_ADMIN_TOKEN: "admin-de-prueba",
      // DATABASE_URL alone would mean production, which refuses the two switches below.
      SWITCH_ENV: "development",
      SWITCH_WEBHOOK_ALLOW_PRIVATE: "1",
      SWITCH_WEBHOOK_BACKOFF_ESCALA: "0.5",
      SWITCH_HOUSEKEEPING_SEGUNDOS: "1"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  child.stdout?.on("data", (c) => {
    output += c
  })
  child.stderr?.on("data", (c) => {
    output += c
  })
  const url = `http://127.0.0.1:${port}`
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output}`)
      return fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false
      )
    },
    40_000,
    200
  ).catch((e) => {
    throw new Error(`server did not start: ${e}\n${output}`)
  })
  return { child, url }
}

const kill9 = (proc: Proc) =>
  new Promise<void>((done) => {
    proc.child.once("exit", () => done())
    proc.child.kill("SIGKILL")
  })

beforeAll(async () => {
  databaseUrl = await freshDatabase()
  receiver = await startReceiver()
})

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
  await receiver?.close()
})

const setup = async (base: string, url: string) => {
  const m = await registerMerchant(base)
  const approved = await call(base, "POST", `/admin/v1/comercios/${m.codigo}/aprobar`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { cuenta_liquidacion: OWN_ACCOUNT, emitir_llave: true }
  })
  await call(base, "POST", `/admin/v1/comercios/${m.codigo}/revisar`, {
    headers: { "x-admin-token": "admin-de-prueba" }
  })
  const liveKey = `${m.codigo}:${approved.body.api_key}`
  const hook = await call(base, "POST", "/switch/v1/webhooks", {
    key: liveKey,
    body: { url, eventos: ["*"] }
  })
  expect(hook.status).toBe(201)
  return { ...m, liveKey, hookId: hook.body.id as string, secret: hook.body.secret as string }
}

describe("kill -9", () => {
  it("a notice committed while its server is frozen, then killed with -9, is delivered after restart", async () => {
    const first = await start()
    const m = await setup(first.url, `${receiver.url}?frozen`)
    first.child.kill("SIGSTOP")
    // The payment's transaction commits (here written directly, as the frozen server cannot).
    const [event] = await writeEvent(databaseUrl, m.codigo, "test", "L-frozen")
    if (event === undefined) throw new Error("the notice was not written")
    await kill9(first)
    expect(receiver.received.filter((r) => r.body.includes("L-frozen"))).toHaveLength(0)

    const second = await start()
    const notice = await eventually(() => receiver.received.find((r) => r.body.includes("L-frozen")), 20_000)
    expect(signaturesValid(notice, m.secret)).toBe(true)
    expect(JSON.parse(notice.body).id).toBe(`evt_${event.id}`)
    await kill9(second)
  }, 60_000)

  it("a retry scheduled before a kill -9 still happens after restart, with the same delivery id", async () => {
    const first = await start()
    const m = await setup(first.url, `${receiver.url}?retry`)
    receiver.respond = (i) =>
      receiver.received[i]?.headers["x-service-event"] === "link.pagado" &&
      receiver.received.filter((r) => r.body === receiver.received[i]?.body).length === 1
        ? { status: 500 }
        : { status: 200 }
    const linkId = await paySimulated(first.url, m.key)
    await eventually(() => receiver.received.some((r) => r.body.includes(linkId)), 10_000)
    // The kill comes once the failed attempt is recorded: the receiver's 500 can arrive first.
    await eventually(async () => {
      const [row] = await query(databaseUrl, "select estado from webhook_entregas where webhook_id = $1", [
        m.hookId
      ])
      return row?.estado === "pendiente"
    }, 10_000)
    await kill9(first)
    const [pending] = await query(
      databaseUrl,
      "select estado, intentos from webhook_entregas where webhook_id = $1",
      [m.hookId]
    )
    expect(pending).toMatchObject({ estado: "pendiente", intentos: 1 })

    const second = await start()
    const attempts = await eventually(() => {
      const mine = receiver.received.filter((r) => r.body.includes(linkId))
      return mine.length >= 2 ? mine : null
    }, 30_000)
    expect(attempts[0]?.headers["x-service-delivery"]).toBe(attempts[1]?.headers["x-service-delivery"])
    const [done] = await eventually(async () => {
      const rows = await query(
        databaseUrl,
        "select estado, intentos from webhook_entregas where webhook_id = $1",
        [m.hookId]
      )
      return rows[0]?.estado === "entregado" ? rows : null
    })
    expect(done).toMatchObject({ estado: "entregado", intentos: 2 })
    await kill9(second)
  }, 60_000)

  it("a job taken by a process that died before claiming it runs again in minutes, not graphile's 4 hours", async () => {
    const first = await start()
    const m = await setup(first.url, `${receiver.url}?orphan`)
    first.child.kill("SIGSTOP")
    await writeEvent(databaseUrl, m.codigo, "test", "L-orphan")
    // As if a runner took the delivery job ten minutes ago and died before its claim committed.
    const locked = await query(
      databaseUrl,
      `update graphile_worker._private_jobs set locked_by = 'runner-muerto', locked_at = now() - interval '10 minutes'
       where locked_at is null and payload->>'intento' = '1' returning id`
    )
    expect(locked.length).toBeGreaterThan(0)
    await kill9(first)

    const second = await start()
    const notice = await eventually(() => receiver.received.find((r) => r.body.includes("L-orphan")), 20_000)
    expect(signaturesValid(notice, m.secret)).toBe(true)
    await kill9(second)
  }, 60_000)
})

/**
 * Freezes the given servers, writes a notice for `link`, and holds its delivery's row locked so
 * that the attempt's claim, once a runner takes the job, waits; the servers go on. Returns the
 * delivery id and the lock's holder (roll it back to let the claim through).
 */
const takenButNotClaimed = async (procs: ReadonlyArray<Proc>, codigo: string, link: string) => {
  for (const p of procs) p.child.kill("SIGSTOP")
  await writeEvent(databaseUrl, codigo, "test", link)
  const [delivery] = await query(
    databaseUrl,
    "select e.id from webhook_entregas e join eventos v on v.id = e.evento_id where v.data->>'link_id' = $1",
    [link]
  )
  const holder = new Pg.Client({ connectionString: databaseUrl })
  await holder.connect()
  await holder.query("begin")
  await holder.query("select 1 from webhook_entregas where id = $1 for update", [delivery.id])
  for (const p of procs) p.child.kill("SIGCONT")
  const lockedBy = await eventually(async () => {
    const [job] = await query(
      databaseUrl,
      "select locked_by from graphile_worker._private_jobs where payload->>'id' = $1",
      [delivery.id]
    )
    return job?.locked_by as string | null | undefined
  }, 20_000)
  // The runner's claim is under way, waiting on the row.
  await eventually(
    async () =>
      (
        await query(
          databaseUrl,
          `select 1 from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query like '%update webhook_entregas%'`
        )
      ).length > 0,
    20_000
  )
  return { deliveryId: delivery.id as string, holder, lockedBy }
}

describe("a job taken by a runner", () => {
  beforeAll(() => {
    receiver.respond = () => ({ status: 200 })
  })

  it("whose process was killed with -9 before claiming it runs again within 60 s of the restart", async () => {
    const first = await start()
    const m = await setup(first.url, `${receiver.url}?taken`)
    const { deliveryId, holder, lockedBy } = await takenButNotClaimed([first], m.codigo, "L-taken")
    await kill9(first)
    await holder.query("rollback")
    await holder.end()
    const [row] = await query(databaseUrl, "select estado, intentos from webhook_entregas where id = $1", [
      deliveryId
    ])
    expect(row).toMatchObject({ estado: "pendiente", intentos: 0 })
    const [job] = await query(
      databaseUrl,
      "select locked_by from graphile_worker._private_jobs where payload->>'id' = $1",
      [deliveryId]
    )
    expect(job?.locked_by).toBe(lockedBy)

    const restarted = Date.now()
    const second = await start()
    const notice = await eventually(
      () => receiver.received.find((r) => r.body.includes("L-taken")),
      60_000 - (Date.now() - restarted),
      250
    )
    expect(Date.now() - restarted).toBeLessThan(60_000)
    expect(signaturesValid(notice, m.secret)).toBe(true)
    await kill9(second)
  }, 120_000)

  it("of a live sibling process is never unlocked, however long its attempt waits", async () => {
    const a = await start()
    const b = await start()
    const m = await setup(a.url, `${receiver.url}?sibling`)
    const { deliveryId, holder, lockedBy } = await takenButNotClaimed([a, b], m.codigo, "L-sibling")
    // Past the silence after which a runner counts as dead, with both processes beating.
    const until = Date.now() + 40_000
    while (Date.now() < until) {
      const [job] = await query(
        databaseUrl,
        "select locked_by from graphile_worker._private_jobs where payload->>'id' = $1",
        [deliveryId]
      )
      expect(job?.locked_by).toBe(lockedBy)
      await new Promise((r) => setTimeout(r, 1_000))
    }
    await holder.query("rollback")
    await holder.end()
    const [done] = await eventually(async () => {
      const rows = await query(databaseUrl, "select estado, intentos from webhook_entregas where id = $1", [
        deliveryId
      ])
      return rows[0]?.estado === "entregado" ? rows : null
    })
    expect(done).toMatchObject({ estado: "entregado", intentos: 1 })
    expect(receiver.received.filter((r) => r.body.includes("L-sibling"))).toHaveLength(1)
    await kill9(a)
    await kill9(b)
  }, 120_000)
})
