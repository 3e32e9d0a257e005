/**
 * The process's Prometheus metrics (prom-client), read at `/metrics` (ops/OpsRoutes.ts): HTTP
 * requests by route and status with their latency, webhook delivery outcomes, bank calls by
 * operation and outcome, the database pool's connections, and Node's own (memory, event loop,
 * GC). The job queue's depth and age are read from Postgres when scraped.
 *
 * One registry per process. With SWITCH_WORKERS above 1 the worker a scrape reaches asks the
 * primary, which gathers every worker's registry (prom-client's AggregatorRegistry) and sums
 * them ({@link scrape}, {@link aggregateWorkers}): counters and histograms are the whole
 * server's, whichever worker answers.
 */
import cluster from "node:cluster"
import client from "prom-client"

export const registry = new client.Registry()
client.collectDefaultMetrics({ register: registry, prefix: "switch_" })

export const httpRequests = new client.Counter({
  name: "switch_http_requests_total",
  help: "HTTP requests answered, by route template, method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry]
})

export const httpDuration = new client.Histogram({
  name: "switch_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by route template and method.",
  labelNames: ["route", "method"] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry]
})

export const webhookDeliveries = new client.Counter({
  name: "switch_webhook_deliveries_total",
  help: "Webhook delivery attempts by outcome: entregada (2xx), fallida (will be retried), agotada (no retry left).",
  labelNames: ["outcome"] as const,
  registers: [registry]
})

export const bankCalls = new client.Counter({
  name: "switch_bank_calls_total",
  help: "Calls to a bank by mode, operation and the state it answered (DESCONOCIDA: no clear answer).",
  labelNames: ["mode", "operation", "state"] as const,
  registers: [registry]
})

// Read from Postgres by the worker that answers the scrape: the same in every worker, never summed.
export const jobsWaiting = new client.Gauge({
  name: "switch_jobs_waiting",
  help: "Jobs due and not taken by any runner.",
  registers: [registry],
  aggregator: "omit"
})

export const jobsOldestSeconds = new client.Gauge({
  name: "switch_jobs_oldest_waiting_seconds",
  help: "Age of the oldest job due and not taken (0 when none).",
  registers: [registry],
  aggregator: "omit"
})

/** What a pool says of its connections (pg's Pool). */
export interface PoolCounts {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
}

let pool: PoolCounts | undefined

/** The pool whose connections `switch_db_pool_connections` reports (the last one opened). */
export const watchPool = (watched: PoolCounts): void => {
  pool = watched
}

new client.Gauge({
  name: "switch_db_pool_connections",
  help: "Database pool connections: total open, idle, and requests waiting for one.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    if (pool === undefined) return
    this.set({ state: "total" }, pool.totalCount)
    this.set({ state: "idle" }, pool.idleCount)
    this.set({ state: "waiting" }, pool.waitingCount)
  }
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A path segment that names one object: a UUID, or anything with a digit but a version (`v1`). */
const isId = (segment: string) =>
  UUID.test(segment) || (/\d/.test(segment) && !/^v\d+$/.test(segment)) || segment.length > 40

/** Collections whose members are named by a code rather than an id (a merchant, a receipt). */
const NAMED_BY_CODE = new Set(["comercios", "verificar"])
/** Routes under those collections that are words, not codes. */
const WORDS = new Set(["registrar"])

const named = (segment: string, previous: string | undefined) =>
  isId(segment) || (previous !== undefined && NAMED_BY_CODE.has(previous) && !WORDS.has(segment))

/**
 * A request's route as a label: its path with ids replaced (`:id`), the portal's and console's
 * client routes and assets folded, and every unknown path as one, so labels stay few whatever
 * clients send.
 */
export const routeOf = (path: string, status: number): string => {
  if (status === 404) return "no_encontrada"
  const segments = path.split("/").filter((s) => s !== "")
  const app = segments[0]
  if (app === "panel" || app === "operador")
    return segments[1] === "assets" ? `/${app}/assets/:archivo` : `/${app}/*`
  return `/${segments
    .slice(0, 6)
    .map((s, i) => (named(s, segments[i - 1]) ? ":id" : s))
    .join("/")}`
}

/** Counts an answered request and its latency. */
export const observeRequest = (method: string, path: string, status: number, startedMs: number): void => {
  const route = routeOf(path, status)
  httpRequests.inc({ route, method, status: String(status) })
  httpDuration.observe({ route, method }, (Date.now() - startedMs) / 1000)
}

/**
 * {@link observeRequest} for one route's requests (a lane's), its labels bound once: the hot
 * path pays for no label lookup.
 */
export const routeObserver = (method: string, path: string) => {
  const duration = httpDuration.labels({ route: routeOf(path, 200), method })
  const byStatus = new Map<number, client.Counter.Internal>()
  return (status: number, startedMs: number): void => {
    let counter = byStatus.get(status)
    if (counter === undefined) {
      counter = httpRequests.labels({ route: routeOf(path, status), method, status: String(status) })
      byStatus.set(status, counter)
    }
    counter.inc()
    duration.observe((Date.now() - startedMs) / 1000)
  }
}

// ---------------------------------------------------------------------------------------------
// Several worker processes (SWITCH_WORKERS > 1, main.ts): one scrape, every worker's metrics

const ASK = "switch:metrics"
const ANSWER = "switch:metrics:answer"
/** Longer than prom-client's own wait for the workers (5 s). */
const ASK_TIMEOUT_MS = 6_000

interface Answer {
  readonly type: typeof ANSWER
  readonly id: number
  readonly text?: string
}

// A worker answers the primary's gathering with this registry (prom-client's default is its
// global one); making an AggregatorRegistry is what installs prom-client's answering listener.
if (cluster.isWorker) {
  client.AggregatorRegistry.setRegistries([registry])
  new client.AggregatorRegistry()
}

/**
 * In the primary: answers a worker's request for the whole server's metrics with every worker's
 * registry, summed (gauges read at scrape time excepted, see {@link scrape}).
 */
export const aggregateWorkers = (): void => {
  const aggregator = new client.AggregatorRegistry()
  cluster.on("message", (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== ASK || typeof message.id !== "number") return
    const id = message.id
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text } satisfies Answer),
      () => worker.send({ type: ANSWER, id } satisfies Answer)
    )
  })
}

let asked = 0
let listening = false
const waiting = new Map<number, (text: string | undefined) => void>()

const askPrimary = (): Promise<string | undefined> =>
  new Promise((done) => {
    // Installed once, when first needed.
    if (!listening) {
      listening = true
      process.on("message", (message: Partial<Answer>) => {
        if (message?.type !== ANSWER || typeof message.id !== "number") return
        waiting.get(message.id)?.(message.text)
        waiting.delete(message.id)
      })
    }
    const id = ++asked
    const timer = setTimeout(() => {
      waiting.delete(id)
      done(undefined)
    }, ASK_TIMEOUT_MS)
    waiting.set(id, (text) => {
      clearTimeout(timer)
      done(text)
    })
    process.send?.({ type: ASK, id })
  })

/**
 * The text of `/metrics`: this process's registry, or, in a worker of several, every worker's
 * summed by the primary plus the queue gauges this worker just read. Should the primary not
 * answer, this worker's own.
 */
export const scrape = async (): Promise<string> => {
  if (!cluster.isWorker || process.send === undefined) return registry.metrics()
  const all = await askPrimary()
  if (all === undefined) return registry.metrics()
  const queue = await Promise.all(
    ["switch_jobs_waiting", "switch_jobs_oldest_waiting_seconds"].map((name) =>
      registry.getSingleMetricAsString(name)
    )
  )
  return `${all.trimEnd()}\n${queue.join("\n")}\n`
}
