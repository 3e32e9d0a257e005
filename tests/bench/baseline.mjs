// The benchmark's baseline, a process of its own: a bare node:http + pg server doing the INSERT
// `POST /switch/v1/links` does, into the same table of the same Postgres (the ceiling for any
// Node server). It runs apart from the load generator, as Switch does, so neither shares the
// other's event loop.
//
//   node baseline.mjs <port> <database url> <comercio id> <one|together> [processes]
//
// `one` sends an INSERT per request; `together` sends the rows asked for in one turn of the event
// loop as one statement, as Switch does (CreateLink.ts). With `processes` above 1 that many
// cluster workers share the port, as SWITCH_WORKERS does for Switch. Prints `listening` once
// every process listens; SIGTERM stops them all.
import cluster from "node:cluster"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"

const [port, databaseUrl, comercioId, mode, processes = "1"] = process.argv.slice(2)

const INSERT_ONE = `insert into links (id, comercio_id, mode, monto, concepto, expires_at, busqueda)
  values ($1, $2, 'test', $3, $4, now() + interval '24 hours', $4) returning id, estado, created_at`
const INSERT_MANY = `insert into links (id, comercio_id, mode, monto, concepto, expires_at, busqueda)
  select i, $1, 'test', m, c, now() + interval '24 hours', c
  from unnest($2::uuid[], $3::bigint[], $4::text[]) as t(i, m, c) returning id, estado, created_at`

/** The rows asked for in one turn of the event loop, inserted by one statement. */
const insertTogether = (pool) => {
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

const serve = () => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 })
  const insert =
    mode === "together"
      ? insertTogether(pool)
      : async (id, monto, concepto) =>
          (await pool.query(INSERT_ONE, [id, comercioId, monto, concepto])).rows[0]
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
  return new Promise((listening) => server.listen(Number(port), "127.0.0.1", listening))
}

const count = Math.max(1, Number(processes) || 1)
if (count === 1) {
  await serve()
  console.log("listening")
  process.once("SIGTERM", () => process.exit(0))
} else if (cluster.isPrimary) {
  const workers = Array.from({ length: count }, () => cluster.fork())
  let listening = 0
  for (const worker of workers)
    worker.once("listening", () => {
      if (++listening === count) console.log("listening")
    })
  // A worker that dies leaves the baseline short: the bench reads that as a failed start.
  cluster.on("exit", () => process.exit(1))
  process.once("SIGTERM", () => {
    cluster.removeAllListeners("exit")
    for (const worker of workers) worker.process.kill("SIGTERM")
    process.exit(0)
  })
} else {
  await serve()
  process.once("SIGTERM", () => process.exit(0))
}
