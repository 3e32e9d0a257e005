// `npm run bench`: measures the service on this machine and prints a table, also written to
// tests/bench/results/latest.json. Every figure that has a goal is reported as a ratio against
// a baseline measured in the same run.
//
//   1. POST /switch/v1/links (32 connections, 15 s) vs a bare node:http + pg server doing the
//      same INSERT into the same Postgres (the ceiling for any Node server), one per request
//      and, since Switch commits concurrent links together, also with one statement per turn.
//   2. The same with SWITCH_WORKERS=2, as a ratio to one worker, with where the CPU went, what
//      a link cost the machine in microseconds of CPU by process group and how many links each
//      Postgres transaction carried, one worker against two, and the most any number of
//      workers could add: what one worker's run left idle. The ratio is
//      the median of BENCH_PAIRS (3) pairs of runs, one worker then two, each pair back to back:
//      a shared machine's speed can drift by a fifth within minutes, more than one pair tells apart.
//   3. POST /switch/v1/lotes with 500 items: p50 and p99.
//   4. GET /l/<id> (the checkout page): requests/s, p99 and the page's bytes.
//   5. Payment to webhook received: p50 and p99 (when the webhooks routes exist).
//   6. GET /switch/v1/verificar/{codigo}: requests/s (per-IP limit lifted for the bench).
//
// BENCH_SECONDS (15) and BENCH_CONNECTIONS (32) change the load; BENCH_ONLY=1,5 runs some of them.
// Each POST /links run (and each baseline) is preceded by BENCH_WARMUP (2) seconds of the same
// load that is not counted, so every server, each worker included, is measured warm.
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import pg from "pg"
import { freePort } from "../../apps/server/src/platform/FreePort.mjs"
import { measureCpu } from "./cpu.mjs"
import { paymentToWebhook } from "./webhookLatency.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const SERVER_MAIN = resolve(here, "../../apps/server/dist/main.js")
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const PAIRS = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3) || 1)
const ONLY = process.env.BENCH_ONLY?.split(",").map((s) => s.trim())
const wanted = (n) => ONLY === undefined || ONLY.includes(String(n))
const ADMIN_TOKEN = "bench-admin-token"
const results = {}

const startServer = async (env) => {
  const port = await freePort()
  let output = ""
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, PORT: String(port), SWITCH_LOG_LEVEL: "warning", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (c) => {
    output += c
  })
  child.stderr.on("data", (c) => {
    output += c
  })
  const url = `http://127.0.0.1:${port}`
  // With several workers, the load waits until every one listens: connections opened before
  // would all stay on the first.
  const workers = Number(env.SWITCH_WORKERS ?? 1)
  const listeningLine = new RegExp(`Procesos +${workers} escuchando`)
  for (const deadline = Date.now() + 90_000; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`)
    const allListening = workers === 1 || listeningLine.test(output)
    if (
      allListening &&
      (await fetch(`${url}/openapi.json`).then(
        (r) => r.ok,
        () => false
      ))
    )
      break
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  const key = /x-switch-key: (demo:sk_test_\w+)/.exec(output)?.[1]
  return {
    url,
    key,
    pid: child.pid,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
  }
}

const load = (options) =>
  new Promise((done, fail) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? fail(error) : done(result)
    )
  })

/** The same load for `WARMUP` seconds, not counted. */
const warmUp = async (options) => {
  if (WARMUP > 0) await load({ ...options, duration: WARMUP })
}

const summary = (result) => ({
  rps: Math.round(result.requests.average),
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors
})

/** One line of the printed table: the usual columns, then everything else as text. */
const tableRow = (value) => {
  if (typeof value !== "object") return { ratio: value }
  const { rps, p50, p99, non2xx, errors, ...rest } = value
  const notes = Object.entries(rest)
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ")
  return Object.fromEntries(
    Object.entries({ rps, p50, p99, non2xx, notes }).filter(([, v]) => v !== undefined)
  )
}

/** The middle value (the mean of the two middle ones for an even count). */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const linkBody = JSON.stringify({ monto: 150.5, concepto: "Bench" })

const INSERT_ONE = `insert into links (id, comercio_id, mode, monto, concepto, expires_at, busqueda)
  values ($1, $2, 'test', $3, $4, now() + interval '24 hours', $4) returning id, estado, created_at`
const INSERT_MANY = `insert into links (id, comercio_id, mode, monto, concepto, expires_at, busqueda)
  select i, $1, 'test', m, c, now() + interval '24 hours', c
  from unnest($2::uuid[], $3::bigint[], $4::text[]) as t(i, m, c) returning id, estado, created_at`

/** The rows asked for in one turn of the event loop, inserted by one statement. */
const insertTogether = (pool, comercioId) => {
  let queue = []
  const flush = async () => {
    const batch = queue
    queue = []
    try {
      const { rows } = await pool.query(INSERT_MANY, [
        comercioId,
        batch.map((b) => b.id),
        batch.map((b) => b.monto),
        batch.map((b) => b.concepto)
      ])
      const byId = new Map(rows.map((r) => [r.id, r]))
      for (const b of batch) b.done(byId.get(b.id))
    } catch (e) {
      for (const b of batch) b.fail(e)
    }
  }
  return (id, monto, concepto) =>
    new Promise((done, fail) => {
      if (queue.length === 0) setImmediate(flush)
      queue.push({ id, monto, concepto, done, fail })
    })
}

/**
 * The ceiling: node:http + pg, one INSERT per request, same table, same Postgres. With
 * `together`, the rows of concurrent requests go as one statement, as Switch sends them
 * (LinkInsert.ts): the ceiling for a server that commits links together.
 */
const startBaseline = async (databaseUrl, comercioId, { together = false } = {}) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 })
  const insert = together
    ? insertTogether(pool, comercioId)
    : async (id, monto, concepto) => (await pool.query(INSERT_ONE, [id, comercioId, monto, concepto])).rows[0]
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => {
      body += c
    })
    req.on("end", async () => {
      try {
        const input = JSON.parse(body)
        const row = await insert(randomUUID(), Math.round(input.monto * 100), input.concepto)
        res.writeHead(201, { "content-type": "application/json" })
        res.end(JSON.stringify(row))
      } catch (e) {
        res.writeHead(500)
        res.end(String(e))
      }
    })
  })
  const port = await freePort()
  await new Promise((r) => server.listen(port, "127.0.0.1", r))
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.close()
      await pool.end()
    }
  }
}

const main = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "switch-bench-"))
  chmodSync(dataDir, 0o755)
  const pgPort = await freePort()
  const env = {
    SWITCH_DATA_DIR: dataDir,
    SWITCH_PG_PORT: String(pgPort),
    DATABASE_URL: "",
    SWITCH_API_POR_MINUTO: "100000000",
    SWITCH_VERIFICAR_POR_MINUTO: "100000000",
    SWITCH_ADMIN_TOKEN: ADMIN_TOKEN,
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1"
  }
  const databaseUrl = `postgres://switch:switch@127.0.0.1:${pgPort}/switch`
  // The first start creates the cluster and the demo merchant; it also serves one worker.
  let server = await startServer(env)
  try {
    /** The first row of one query, on a connection of its own (the server holds its pool). */
    const firstRow = async (text) => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      try {
        return (await client.query(text)).rows[0]
      } finally {
        await client.end()
      }
    }
    const comercioId = (await firstRow("select id from comercios where codigo = 'demo'")).id
    const headers = { "content-type": "application/json", "x-switch-key": server.key }

    /**
     * The next transaction id Postgres will give: write transactions (the link inserts, and the
     * few others the service makes meanwhile) are the difference, exact the moment a run ends,
     * unlike pg_stat_database's commit count, which each backend publishes only now and then.
     */
    const nextTransaction = async () =>
      Number((await firstRow("select pg_snapshot_xmax(pg_current_snapshot())::text as next")).next)

    /**
     * POST /links under load, with where the machine's CPU went meanwhile, its CPU per link,
     * and how many links each Postgres transaction carried (Switch commits concurrent ones
     * together, so a process with fewer requests at once pays more transactions per link).
     */
    const createLinks = async (key) => {
      const options = {
        url: `${server.url}/switch/v1/links`,
        method: "POST",
        headers: { ...headers, "x-switch-key": key },
        body: linkBody
      }
      await warmUp(options)
      const firstTransaction = await nextTransaction()
      const cpu = measureCpu(server.pid)
      const result = await load(options)
      const { share, perRequest } = cpu(result.requests.total)
      const transactions = (await nextTransaction()) - firstTransaction
      return {
        ...summary(result),
        cpu: share,
        cpu_us_per_link: perRequest,
        links_per_transaction: +(result.requests.total / Math.max(1, transactions)).toFixed(1)
      }
    }

    if (wanted(1) || wanted(2)) {
      console.log(`1. POST /links vs bare node:http + pg (${CONNECTIONS} connections, ${SECONDS} s each)`)
      const baselineRun = async (options) => {
        const baseline = await startBaseline(databaseUrl, comercioId, options)
        const loadOptions = {
          url: `${baseline.url}/`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: linkBody
        }
        await warmUp(loadOptions)
        const result = summary(await load(loadOptions))
        await baseline.stop()
        return result
      }
      results.baseline_insert = await baselineRun()
      results.baseline_insert_together = await baselineRun({ together: true })
      results.links_1_worker = await createLinks(server.key)
      results.links_vs_baseline = +(results.links_1_worker.rps / results.baseline_insert.rps).toFixed(2)
      results.links_vs_baseline_together = +(
        results.links_1_worker.rps / results.baseline_insert_together.rps
      ).toFixed(2)
    }

    // Two workers run right after one, on the same database, so each pair compares like with
    // like (the later runs add hundreds of thousands of rows); then one worker serves the rest.
    if (wanted(2)) {
      console.log(`2. POST /links with SWITCH_WORKERS=2 (${PAIRS} pairs of runs: one worker, then two)`)
      const pairs = []
      for (let i = 0; i < PAIRS; i++) {
        // The first pair's one-worker run is part 1's.
        const one = i === 0 ? results.links_1_worker : await createLinks(server.key)
        await server.stop()
        server = await startServer({ ...env, SWITCH_WORKERS: "2" })
        pairs.push({ one, two: await createLinks(server.key) })
        await server.stop()
        server = await startServer(env)
      }
      const ratios = pairs.map(({ one, two }) => two.rps / one.rps)
      results.links_2_workers = pairs[0].two
      results.workers_2_vs_1 = +median(ratios).toFixed(2)
      results.workers_2_pairs = pairs
        .map(({ one, two }, i) => `${ratios[i].toFixed(2)} (${one.rps} → ${two.rps})`)
        .join(", ")
      // What a link cost the machine in each pair's runs, one worker → two. Two workers reach
      // the idle ceiling below only if a link costs the machine no more with two than with one.
      const perLink = ({ cpu_us_per_link: c }) => c.server_node + c.postgres + c.load_generator + c.other
      results.workers_2_us_per_link = pairs
        .map(({ one, two }) => `${perLink(one)} → ${perLink(two)}`)
        .join(", ")
      const [first] = pairs
      results.workers_2_us_per_link_first_pair = Object.keys(first.one.cpu_us_per_link)
        .filter((group) => group !== "idle")
        .map((group) => `${group} ${first.one.cpu_us_per_link[group]} → ${first.two.cpu_us_per_link[group]}`)
        .join(", ")
      results.workers_2_links_per_transaction = pairs
        .map(({ one, two }) => `${one.links_per_transaction} → ${two.links_per_transaction}`)
        .join(", ")
      // More workers only add throughput from CPU that was idle: at one worker's CPU per request,
      // a machine with idle share i can serve at most 1 / (1 - i) times as many links.
      const idle = Number.parseFloat(results.links_1_worker.cpu.idle) / 100
      results.workers_2_ceiling = +(1 / Math.max(0.01, 1 - idle)).toFixed(2)
    }

    if (wanted(3)) {
      console.log("3. POST /lotes with 500 items")
      const items = Array.from({ length: 500 }, (_, i) => ({ monto: 10 + i, concepto: `Item ${i}` }))
      const loteResult = await load({
        url: `${server.url}/switch/v1/lotes`,
        method: "POST",
        headers,
        body: JSON.stringify({ items }),
        connections: 1,
        duration: Math.min(SECONDS, 10)
      })
      results.lotes_500 = summary(loteResult)
    }

    const link = await (
      await fetch(`${server.url}/switch/v1/links`, { method: "POST", headers, body: linkBody })
    ).json()
    if (wanted(4)) {
      console.log("4. GET /l/<id>")
      const page = await fetch(`${server.url}/l/${link.id}`)
      const bytes = (await page.arrayBuffer()).byteLength
      results.checkout_page = { ...summary(await load({ url: `${server.url}/l/${link.id}` })), bytes }
    }

    if (wanted(5)) {
      console.log("5. Payment to webhook received")
      results.payment_to_webhook_ms = await paymentToWebhook({ url: server.url, adminToken: ADMIN_TOKEN })
    }

    if (wanted(6)) {
      console.log("6. GET /verificar/{codigo}")
      await fetch(`${server.url}/switch/v1/links/${link.id}/simular`, {
        method: "POST",
        headers,
        body: JSON.stringify({ resultado: "pagado" })
      })
      const paid = await (await fetch(`${server.url}/switch/v1/links/${link.id}`, { headers })).json()
      results.verificar = summary(
        await load({ url: `${server.url}/switch/v1/verificar/${paid.codigo_verificacion}` })
      )
    }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }

  console.log("")
  console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, tableRow(v)])))
  const out = resolve(here, "results")
  mkdirSync(out, { recursive: true })
  writeFileSync(
    join(out, "latest.json"),
    `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, results }, null, 2)}\n`
  )
  console.log(`written to ${join(out, "latest.json")}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
