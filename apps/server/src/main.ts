/**
 * `npm start`: Postgres (embedded in SWITCH_DATA_DIR/pg unless DATABASE_URL is set),
 * migrations (as SWITCH_MIGRATIONS_DATABASE_URL's role when set, which then grants DATABASE_URL's
 * role what the server uses: platform/RuntimeRole.ts), the demo merchant, then the API on PORT.
 * With SWITCH_WORKERS=N the primary process keeps Postgres and N worker processes share the port;
 * it prints `Procesos  N escuchando` once every one of them listens. SIGINT/SIGTERM stop new
 * requests, let in-flight ones finish, then stop Postgres.
 */
import cluster, { type Worker } from "node:cluster"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Either, FiberRef, Layer, Logger, LogLevel } from "effect"
import {
  cardClaveFrom,
  checkEnvironment,
  fromEnv,
  mercantilFromEnv,
  type ServerSettings,
  Settings,
  startupFromEnv
} from "./Config.js"
import { HttpLive } from "./Http.js"
import { prepare } from "./Prepare.js"
import { LiveBankLive } from "./platform/bank/HttpBank.js"
import { localBankSim } from "./platform/bank/LocalBankSim.js"
import { localCardSim } from "./platform/card/LocalCardSim.js"
import { ensureDatabase } from "./platform/Database.js"
import { describeMail } from "./platform/Mailer.js"
import { aggregateWorkers } from "./platform/Metrics.js"
import { PostgresStartError, type RunningPostgres, startPostgres } from "./platform/Postgres.js"
import { relojDesdeArchivo } from "./platform/Reloj.js"
import { checkRuntimeRole, grantRuntimeRole, RuntimeRoleError } from "./platform/RuntimeRole.js"
import { PgLive } from "./platform/Sql.js"

const env = process.env
// SWITCH_ENV first: a development switch in production stops the start before anything runs.
const checked = checkEnvironment(env)
if (Either.isLeft(checked)) {
  console.error(checked.left)
  process.exit(1)
}
const environment = checked.right
// Every start-up setting is read in Config.ts, with its default.
const startup = startupFromEnv(env, environment)
const { port, host, dataDir, workers, jsonLogs } = startup
const logLevel = LogLevel.fromLiteral(startup.logLevel)
// A bank given its own adapter without its credentials stops a production start, in one line.
const bancos = mercantilFromEnv(env, environment, startup.bankUrl ?? "http://127.0.0.1")
if (Either.isLeft(bancos)) {
  console.error(bancos.left)
  process.exit(1)
}
/**
 * Log lines as JSON, one object per line with the request id among its annotations
 * (SWITCH_LOG_FORMATO=json, production's default), or as text for a person (`texto`).
 */
const LoggerLive = jsonLogs ? Logger.json : Layer.empty

/** SWITCH_SECRET, or one generated once into the data directory (kept across restarts). */
const loadSecret = (): string => {
  if (startup.secret !== null) return startup.secret
  mkdirSync(dataDir, { recursive: true })
  const file = resolve(dataDir, "secret")
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 })
  return readFileSync(file, "utf8").trim()
}

const serve = (databaseUrl: string, settings: ServerSettings) =>
  HttpLive({ port, host }).pipe(
    Layer.provide(LiveBankLive),
    Layer.provide(
      PgLive(databaseUrl, {
        maxConnections: startup.pgPool,
        prepared: startup.pgPreparar
      })
    ),
    Layer.provide(Layer.succeed(Settings, settings)),
    Layer.provide(Logger.minimumLogLevel(logLevel)),
    Layer.provide(LoggerLive),
    Layer.provide(startup.relojArchivo === null ? Layer.empty : relojDesdeArchivo(startup.relojArchivo)),
    Layer.locally(FiberRef.currentTracerEnabled, false)
  )

/**
 * Postgres for the primary: the given DATABASE_URL, or the embedded one, stopped on exit. An
 * embedded one that cannot start fails with its reason (platform/Postgres.ts); others die.
 */
const database = Effect.acquireRelease(
  Effect.tryPromise({
    try: async (): Promise<{ url: string; pg: RunningPostgres | null }> => {
      if (startup.databaseUrl !== null) return { url: startup.databaseUrl, pg: null }
      const pg = await startPostgres({
        dir: resolve(dataDir, "pg"),
        port: startup.pgPort
      })
      await ensureDatabase(pg.url("postgres"), "switch")
      return { url: pg.url("switch"), pg }
    },
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) => (error instanceof PostgresStartError ? Effect.fail(error) : Effect.die(error)))
  ),
  ({ pg }) => (pg === null ? Effect.void : Effect.promise(() => pg.stop()))
)

/**
 * DATABASE_URL's role: granted by the schema's owner and checked when SWITCH_MIGRATIONS_DATABASE_URL
 * names the owner (the start fails with RuntimeRoleError if the role could change the audit log),
 * else only checked, for the start-up lines to say what it could do.
 */
const runtimeRole = (url: string, ownerUrl: string | null) =>
  Effect.tryPromise({
    try: () => (ownerUrl === null ? checkRuntimeRole(url) : grantRuntimeRole(ownerUrl, url)),
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) => (error instanceof RuntimeRoleError ? Effect.fail(error) : Effect.die(error)))
  )

/**
 * Forks the worker processes and stops them (SIGTERM, then wait) when the scope closes. A worker
 * runs this module, not the script that started the primary (cluster's default is
 * `process.argv[1]`): `npm start`'s scripts/start.mjs builds and starts the MCP server before it
 * imports this, and a worker running it again would build again and start a second MCP server
 * on the same port (EADDRINUSE). Workers only serve the API.
 */
const forkWorkers = (databaseUrl: string, secret: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), args: [], silent: false })
      return Array.from({ length: workers }, () =>
        cluster.fork({
          ...env,
          DATABASE_URL: databaseUrl,
          SWITCH_SECRET: secret,
          // The owner's connection is the primary's alone: workers only serve.
          SWITCH_MIGRATIONS_DATABASE_URL: undefined,
          // Decided here: with DATABASE_URL set for it, a worker would default to production.
          SWITCH_ENV: environment,
          SWITCH_ROLE: "worker"
        })
      )
    }),
    (forked) =>
      Effect.promise(() =>
        Promise.all(
          forked.map(
            (worker) =>
              new Promise<void>((done) => {
                if (worker.isDead()) return done()
                worker.once("exit", () => done())
                worker.process.kill("SIGTERM")
              })
          )
        )
      )
  )

/** Whether the worker listens, or has exited first. */
const listening = (worker: Worker) =>
  new Promise<boolean>((done) => {
    worker.once("listening", () => done(true))
    worker.once("exit", () => done(false))
  })

const primary = Effect.gen(function* () {
  // Live mode talks to SWITCH_BANK_URL, else to the bank simulator started here (platform/bank/LocalBankSim.ts).
  if (startup.bankUrl === null) {
    const sim = yield* localBankSim
    // Handed on through the environment: to fromEnv below and to the forked workers.
    if (sim.url !== null) env.SWITCH_BANK_URL = sim.url
  }
  const secret = loadSecret()
  // The card pilot's processor: SWITCH_CARD_URL, else apps/card-sim started here with our shared key.
  if (startup.cardUrl === null) {
    const card = yield* localCardSim(startup.cardClave ?? cardClaveFrom(secret))
    if (card.url !== null) env.SWITCH_CARD_URL = card.url
  }
  const settings = fromEnv(env, secret, port, environment)
  const { url, pg } = yield* database
  // Set only with DATABASE_URL (Config.ts): the role that owns the schema migrates it.
  const ownerUrl = startup.migrationsDatabaseUrl
  const demo = yield* Effect.promise(() =>
    prepare(ownerUrl ?? url, settings, {
      seed: true,
      prepared: startup.pgPreparar,
      demoUser: environment === "development"
    })
  )
  const role = pg === null ? yield* runtimeRole(url, ownerUrl) : null
  yield* Effect.sync(() => {
    console.log("")
    console.log(
      `Switch API       ${settings.baseUrl}/switch/v1  (${workers} proceso${workers > 1 ? "s" : ""})`
    )
    console.log(`Escucha en       ${host}:${port}  (SWITCH_ENV=${environment})`)
    console.log(`Documentación    ${settings.baseUrl}/docs`)
    console.log(`Panel            ${settings.baseUrl}/panel  (regístrate con contraseña o inicia sesión)`)
    console.log(`Correo           ${describeMail(settings)}`)
    console.log(`Banco (live)     ${settings.bankUrl ?? "sin banco: SWITCH_BANK_URL no definido"}`)
    console.log(`Tarjeta (piloto) ${settings.cardUrl ?? "sin procesador: SWITCH_CARD_URL no definido"}`)
    // The API's address only: its credentials are never printed.
    if (settings.mercantil !== undefined)
      console.log(`Mercantil        ${settings.mercantil.bancos.join(", ")} → ${settings.mercantil.url}`)
    console.log(`OpenAPI          ${settings.baseUrl}/openapi.json`)
    console.log(`Comercio demo    ${demo?.codigo}`)
    console.log(`Llave de prueba  x-switch-key: ${demo?.codigo}:${demo?.key}`)
    if (demo?.usuario)
      console.log(`Panel demo       ${demo.usuario.email} / ${demo.usuario.password}  (solo en desarrollo)`)
    console.log(
      `Postgres         ${
        role === null
          ? `embebido en ${pg?.dir}`
          : `DATABASE_URL como ${role.role}${role.owner === null ? "" : `; migraciones como ${role.owner}`}`
      }`
    )
    if (role !== null && role.problems.length > 0)
      console.log(
        `Auditoría        ${role.role} podría alterarla (${role.problems.join("; ")}): migre como otro rol con SWITCH_MIGRATIONS_DATABASE_URL (docs/deploy.md)`
      )
    console.log("")
  })
  if (workers === 1) return yield* Layer.launch(serve(url, settings))
  // A worker's /metrics is every worker's, summed here (platform/Metrics.ts).
  yield* Effect.sync(aggregateWorkers)
  const forked = yield* forkWorkers(url, secret)
  // A connection made before every worker listens goes to those already listening, and keeps
  // that process: a load that starts at the first answer could land on one worker of several.
  const listen = yield* Effect.promise(() => Promise.all(forked.map(listening)))
  if (listen.includes(false))
    return yield* Effect.dieMessage("un proceso de trabajo terminó antes de escuchar")
  yield* Effect.sync(() => console.log(`Procesos         ${workers} escuchando`))
  return yield* Effect.never
}).pipe(
  Effect.scoped,
  // Why the embedded Postgres did not start and how to fix it, or why DATABASE_URL's role does
  // not do (it could change the audit log, or lacks a grant): first line first; no stack.
  Effect.catchAll((error) =>
    Effect.sync(() => {
      console.error(
        error instanceof RuntimeRoleError
          ? `No se pudo iniciar: ${error.message}`
          : `No se pudo iniciar Postgres: ${error.message}`
      )
      process.exit(1)
    })
  )
)

const worker = Effect.suspend(() => {
  const settings = fromEnv(env, startup.secret ?? "", port, environment)
  return Layer.launch(serve(startup.databaseUrl ?? "", settings))
})

NodeRuntime.runMain(cluster.isPrimary ? primary : worker, {
  disableErrorReporting: false,
  disablePrettyLogger: jsonLogs
})
