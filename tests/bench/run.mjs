// `npm run bench`: measures the service on this machine and prints a table, also written to
// tests/bench/results/latest.json. Every figure that has a goal is reported as a ratio against
// a baseline measured in the same run.
//
//   1. POST /switch/v1/links (32 connections, 15 s) vs a bare node:http + pg server doing the
//      same INSERT into the same Postgres (the ceiling for any Node server; baseline.mjs, a
//      process of its own), one per request and, since Switch commits concurrent links
//      together, also with one statement per turn.
//   2. The same with SWITCH_WORKERS=2, as a ratio to one worker, with where the CPU went, what
//      a link cost the machine in microseconds of CPU by process group and how many links each
//      Postgres transaction carried, one worker against two, and the most any number of
//      workers could add: what one worker's run left idle. Beside it, the bare baselines in two
//      processes against one: what a second process adds on this machine to any Node server.
//   Parts 1 and 2 run every server at once and take turns (interleave.mjs): BENCH_ROUNDS (5)
//   rounds, each giving each server a slice of BENCH_SECONDS / BENCH_ROUNDS seconds, so the
//   drift of a shared machine's speed, a fifth within minutes, falls on all of them alike.
//   3. POST /switch/v1/lotes with 500 items: p50 and p99.
//   4. GET /l/<id> (the checkout page): requests/s, p99 and the page's bytes.
//   5. Payment to webhook received: p50 and p99 (when the webhooks routes exist).
//   6. GET /switch/v1/verificar/{codigo}: requests/s (per-IP limit lifted for the bench).
//   7. GET /switch/v1/links for one merchant with BENCH_LINKS links (1,000,000): p50/p99 of each
//      filter, of a deep `offset` and a deep `starting_after` page, against the goal of p99 ≤
//      50 ms (lists.mjs). Run it alone with BENCH_ONLY=7; BENCH_LINKS=10000000 for the goal's size.
//   8. The payer page on emulated slow 3G (400 kbit/s, 400 ms RTT, 360 px, cache off) in
//      Chromium: `checkout_slow3g_ms`, p50 of 5 cold loads until interactive, goal ≤ 900 ms
//      (slow3g.mjs says what "interactive" is). Run it alone with BENCH_ONLY=8; with BENCH_BEFORE
//      the other build's page is measured first as `checkout_slow3g_before_ms`.
//   9. The portal's first screen (Inicio, signed in as the demo owner), cold, in Chromium: bytes
//      on the wire, and what they would be with every body gzipped or brotli-compressed, against
//      the goal of 100 KB (portalFirstScreen.mjs). Run it alone with BENCH_ONLY=9.
//
// BENCH_SECONDS (15) and BENCH_CONNECTIONS (32) change the load; BENCH_ONLY=1,5 runs some of them.
// BENCH_BEFORE=path/to/main.js adds another build of the server (say, the one before a change,
// copied out of apps/server/dist) to parts 1 and 2 as `links_before`, and this build started
// the same way as `links_after`: one worker each on the same Postgres, in the same turns.
// `links_vs_before` is the requests/s of this build against the other. Part 5 then runs on both
// builds in turns (`payment_to_webhook_ms_before_1`, `_after_1`, ...; 100 payments each).
// Each server of parts 1 and 2 first takes BENCH_WARMUP (2) seconds of its load, not counted,
// so every server, each worker included, is measured warm.
import { spawn } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import pg from "pg"
import { freePort } from "../../apps/server/src/platform/FreePort.mjs"
import { compare, interleave } from "./interleave.mjs"
import { bigMerchantLists } from "./lists.mjs"
import { portalFirstScreen } from "./portalFirstScreen.mjs"
import { checkoutSlow3g } from "./slow3g.mjs"
import { paymentToWebhook } from "./webhookLatency.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const SERVER_MAIN = resolve(here, "../../apps/server/dist/main.js")
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5) || 1)
const ONLY = process.env.BENCH_ONLY?.split(",").map((s) => s.trim())
const BEFORE = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined
const wanted = (n) => ONLY === undefined || ONLY.includes(String(n))
const ADMIN_TOKEN = "bench-admin-token"
const results = {}

/** SIGTERM to a child process, resolved once it has exited. */
const stopChild = (child) =>
  new Promise((done) => {
    if (child.exitCode !== null) return done()
    child.once("exit", () => done())
    child.kill("SIGTERM")
  })

const startServer = async (env, main = SERVER_MAIN) => {
  const port = await freePort()
  let output = ""
  const child = spawn(process.execPath, [main], {
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
  // The demo merchant's portal owner (development only): `Panel demo <email> / <password>`.
  const panel = /Panel demo +(\S+) \/ (\S+)/.exec(output)
  return {
    url,
    key,
    panel: panel === null ? undefined : { email: panel[1], password: panel[2] },
    pid: child.pid,
    stop: () => stopChild(child)
  }
}

const load = (options) =>
  new Promise((done, fail) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? fail(error) : done(result)
    )
  })

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

const linkBody = JSON.stringify({ monto: 150.5, concepto: "Bench" })

/**
 * The baseline (baseline.mjs) in a process of its own: `mode` "one" (an INSERT per request) or
 * "together" (each turn's rows as one statement), in `processes` processes.
 */
const startBaseline = async (databaseUrl, comercioId, mode, processes = 1) => {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [resolve(here, "baseline.mjs"), String(port), databaseUrl, comercioId, mode, String(processes)],
    { stdio: ["ignore", "pipe", "pipe"] }
  )
  let output = ""
  await new Promise((listening, fail) => {
    const read = (chunk) => {
      output += chunk
      if (/^listening$/m.test(output)) listening()
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.once("exit", () => fail(new Error(`baseline exited:\n${output}`)))
  })
  child.removeAllListeners("exit")
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => stopChild(child)
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
    // The two-process runs set DATABASE_URL, which alone means production and its limits.
    SWITCH_ENV: "development",
    SWITCH_API_POR_MINUTO: "100000000",
    SWITCH_VERIFICAR_POR_MINUTO: "100000000",
    SWITCH_ADMIN_TOKEN: ADMIN_TOKEN,
    SWITCH_WEBHOOK_ALLOW_PRIVATE: "1"
  }
  const databaseUrl = `postgres://switch:switch@127.0.0.1:${pgPort}/switch`
  // The first start creates the cluster and the demo merchant; it also serves one worker.
  const server = await startServer(env)
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

    if (wanted(1) || wanted(2)) {
      console.log(
        `1–2. POST /links, baselines and two workers in turns (${ROUNDS} rounds; ${CONNECTIONS} connections, ${SECONDS} s each in all)`
      )
      // Every server of parts 1 and 2 runs at once on the one Postgres (interleave.mjs); the
      // two-worker server and the baselines are stopped after.
      const extra = []
      try {
        const linksOptions = (url, key) => ({
          url: `${url}/switch/v1/links`,
          method: "POST",
          headers: { ...headers, "x-switch-key": key },
          body: linkBody
        })
        const contender = (name, started, options) => ({ name, pid: started.pid, options })
        const baseline = async (name, mode, processes) => {
          const started = await startBaseline(databaseUrl, comercioId, mode, processes)
          extra.push(started)
          return contender(name, started, {
            url: `${started.url}/`,
            method: "POST",
            headers: { "content-type": "application/json" },
            body: linkBody
          })
        }
        const contenders = [
          contender("links_1_worker", server, linksOptions(server.url, server.key)),
          await baseline("baseline_insert", "one", 1),
          await baseline("baseline_insert_together", "together", 1)
        ]
        // The two builds start alike (the first server above also runs Postgres, so it is not
        // compared with them).
        const builds =
          BEFORE === undefined
            ? undefined
            : {
                before: await startServer({ ...env, DATABASE_URL: databaseUrl }, BEFORE),
                after: await startServer({ ...env, DATABASE_URL: databaseUrl })
              }
        if (builds !== undefined) {
          extra.push(builds.before, builds.after)
          contenders.push(
            contender("links_before", builds.before, linksOptions(builds.before.url, builds.before.key)),
            contender("links_after", builds.after, linksOptions(builds.after.url, builds.after.key))
          )
        }
        if (wanted(2)) {
          const two = await startServer({ ...env, DATABASE_URL: databaseUrl, SWITCH_WORKERS: "2" })
          extra.push(two)
          contenders.push(
            contender("links_2_workers", two, linksOptions(two.url, two.key)),
            await baseline("baseline_insert_2_processes", "one", 2),
            await baseline("baseline_insert_together_2_processes", "together", 2)
          )
        }
        const measured = await interleave({
          contenders,
          rounds: ROUNDS,
          seconds: SECONDS / ROUNDS,
          warmup: WARMUP,
          load,
          transactions: nextTransaction
        })
        const figures = ({ requests, slices, ...rest }) => ({ ...rest, slices: slices.join(" ") })
        for (const [name, value] of Object.entries(measured)) results[name] = figures(value)
        const { links_1_worker: one, baseline_insert: base, baseline_insert_together: together } = measured
        results.links_vs_baseline = compare(one, base).ratio
        results.links_vs_baseline_together = compare(one, together).ratio
        if (builds !== undefined) {
          const versus = compare(measured.links_after, measured.links_before)
          results.links_vs_before = versus.ratio
          results.links_vs_before_rounds = versus.rounds
          // What a page of 200 links weighs from each build (the demo merchant has thousands).
          const listBytes = async (started) => {
            const page = await fetch(`${started.url}/switch/v1/links?limit=200`, {
              headers: { "x-switch-key": started.key }
            })
            return (await page.arrayBuffer()).byteLength
          }
          results.list_200_bytes = `${await listBytes(builds.before)} → ${await listBytes(builds.after)}`
        }
        if (wanted(2)) {
          const two = measured.links_2_workers
          const workers = compare(two, one)
          results.workers_2_vs_1 = workers.ratio
          results.workers_2_rounds = workers.rounds
          // The same second process for the bare baselines: what two processes can add on this
          // machine to any Node server, whatever its code.
          results.baseline_2_vs_1 = compare(measured.baseline_insert_2_processes, base).ratio
          results.baseline_together_2_vs_1 = compare(
            measured.baseline_insert_together_2_processes,
            together
          ).ratio
          // What a link cost the machine, one worker → two, by group. Two workers reach the idle
          // ceiling below only if a link costs the machine no more with two than with one.
          const groups = Object.keys(one.cpu_us_per_link).filter((group) => group !== "idle")
          // The main threads are part of server_node, so the total leaves them out.
          const total = (run) =>
            groups
              .filter((group) => group !== "server_main_threads")
              .reduce((sum, group) => sum + run.cpu_us_per_link[group], 0)
          results.workers_2_us_per_link = [
            `total ${total(one)} → ${total(two)}`,
            ...groups.map((group) => `${group} ${one.cpu_us_per_link[group]} → ${two.cpu_us_per_link[group]}`)
          ].join(", ")
          results.workers_2_links_per_transaction = `${one.links_per_transaction} → ${two.links_per_transaction}`
          // More workers only add throughput from CPU that was idle: at one worker's CPU per
          // request, a machine with idle share i can serve at most 1 / (1 - i) times as many links.
          const idle = Number.parseFloat(one.cpu.idle) / 100
          results.workers_2_ceiling = +(1 / Math.max(0.01, 1 - idle)).toFixed(2)
        }
      } finally {
        for (const started of extra) await started.stop()
      }
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

    if (wanted(8)) {
      console.log("8. GET /l/<id> on slow 3G in Chromium (5 cold loads)")
      // With BENCH_BEFORE, the other build's page for the same link first, in the same run.
      if (BEFORE !== undefined) {
        const before = await startServer({ ...env, DATABASE_URL: databaseUrl }, BEFORE)
        try {
          results.checkout_slow3g_before_ms = await checkoutSlow3g({ url: `${before.url}/l/${link.id}` })
        } finally {
          await before.stop()
        }
      }
      results.checkout_slow3g_ms = await checkoutSlow3g({ url: `${server.url}/l/${link.id}` })
    }

    if (wanted(5)) {
      console.log("5. Payment to webhook received")
      if (BEFORE === undefined)
        results.payment_to_webhook_ms = await paymentToWebhook({ url: server.url, adminToken: ADMIN_TOKEN })
      else {
        // Both builds alike, on the same Postgres, in turns: before, after, before, after.
        const builds = {
          before: await startServer({ ...env, DATABASE_URL: databaseUrl }, BEFORE),
          after: await startServer({ ...env, DATABASE_URL: databaseUrl })
        }
        try {
          for (const turn of [1, 2])
            for (const name of ["before", "after"])
              results[`payment_to_webhook_ms_${name}_${turn}`] = await paymentToWebhook({
                url: builds[name].url,
                adminToken: ADMIN_TOKEN,
                payments: 100
              })
        } finally {
          await builds.before.stop()
          await builds.after.stop()
        }
      }
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

    if (wanted(7)) {
      const links = Number(process.env.BENCH_LINKS ?? 1_000_000)
      console.log(`7. GET /links for a merchant with ${links} links`)
      const lists = await bigMerchantLists({ url: server.url, databaseUrl, links })
      const { seeded_links, seed_seconds, goal_p99_ms, ...byQuery } = lists
      console.log(`   seeded ${seeded_links} links in ${seed_seconds} s; goal p99 ≤ ${goal_p99_ms} ms`)
      for (const [name, figures] of Object.entries(byQuery)) results[`links_list_${name}`] = figures
    }

    if (wanted(9)) {
      console.log("9. The portal's first screen (Inicio, signed in), cold, in Chromium")
      if (server.panel === undefined) throw new Error("the server printed no demo portal owner")
      results.portal_first_screen_bytes = await portalFirstScreen({ url: server.url, ...server.panel })
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
