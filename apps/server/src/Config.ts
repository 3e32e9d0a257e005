/**
 * Server settings from the environment (DESIGN.md §4 and §8), read once at start: every setting
 * the server reads is read here ({@link fromEnv} for what the server's layers use,
 * {@link startupFromEnv} for what `main.ts` decides before them), and docs/deploy.md names each
 * with its default (Config.test.ts checks both).
 */
import { createHmac } from "node:crypto"
import { resolve } from "node:path"
import { BankCalendar } from "@switch/core"
import { Context, Either, Option, Redacted } from "effect"

/**
 * SWITCH_ENV (DESIGN §8): `development` is the default of `npm start` on embedded Postgres and of
 * the tests, `production` the default with DATABASE_URL. Development switches are refused in
 * production ({@link checkEnvironment}).
 */
export type Environment = "development" | "production"

export interface ServerSettings {
  /** SWITCH_ENV, as {@link checkEnvironment} decided it. */
  readonly environment: Environment
  /** Public base of link urls: `{baseUrl}/l/<id>`. */
  readonly baseUrl: string
  /** HMAC secret for receipt codes, derived keys and internal tokens. */
  readonly secret: Redacted.Redacted<string>
  /** Operators' token for /admin/v1; none means the admin API answers 404. */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** Requests per minute per IP on receipt verification (SPEC: 20; benchmarks lift it). */
  readonly verificarPorMinuto: number
  /** Sign-ups per hour per IP. */
  readonly registrosPorHora: number
  /** API requests per minute per merchant (SPEC: 120). */
  readonly apiPorMinuto: number
  /** Seconds between housekeeping rounds (expiring links, dropping closed rate windows). */
  readonly housekeepingSeconds: number
  /**
   * SWITCH_CUATRO_OJOS_DESDE (bolivars): paying money in review, marking it paid or closing it
   * without paying, from this amount, needs a second operator (unset: always).
   */
  readonly cuatroOjosDesde?: number
  /** SWITCH_WEBHOOK_ALLOW_PRIVATE=1, development only: webhooks may use http, any port and private addresses. */
  readonly webhookAllowPrivate: boolean
  /** SWITCH_WEBHOOK_BACKOFF_ESCALA: multiplies DESIGN's retry delays (1; tests use 0.0001). */
  readonly webhookBackoffEscala: number
  /** SWITCH_BANK_URL: the live-mode bank; null starts the bank simulator beside the server (main.ts). */
  readonly bankUrl: string | null
  /** SWITCH_BANK_TIMEOUT_MS: how long a bank call may take before its outcome is unknown (15000). */
  readonly bankTimeoutMs: number
  /**
   * Mercantil Banco's adapter, when SWITCH_BANCO_ADAPTADORES gives it a bank code (`0105=mercantil`):
   * its API and the credentials Mercantil issues (SWITCH_MERCANTIL_*, docs/deploy.md). Unset, every
   * bank goes through the HTTP bank.
   */
  readonly mercantil?: MercantilSettings | undefined
  /** SWITCH_CONCILIAR_SEGUNDOS: wait between bank queries of an operation with no final answer (30). */
  readonly conciliarSegundos: number
  /**
   * SWITCH_CONCILIAR_ABANDONO_SEGUNDOS (4 h): after this, an operation the bank answers it never
   * received (direct API, or a payment on the page) is settled as not done; one the bank cannot
   * be asked about (its query fails) goes to review for a person instead.
   */
  readonly conciliarAbandonoSegundos: number
  /**
   * SWITCH_CIERRE_BANCARIO: `0` lifts the banks' daily close (23:45 to 01:30 Caracas) for live
   * code requests. Development and test suites only; on by default, as SPEC says.
   */
  readonly cierreBancario: boolean
  /**
   * SWITCH_PROXIES_CONFIABLES: addresses or CIDR ranges of the proxies in front of the server,
   * comma-separated; requests from them are attributed to the client in `X-Forwarded-For`
   * (http/ClientAddress.ts). Empty by default: the socket's address is the client's.
   */
  readonly proxiesConfiables: ReadonlyArray<string>
  /** Hours a BCV rate stays usable (`SWITCH_TASA_MAX_HORAS`, 48); an older one counts as missing. */
  readonly tasaMaxHoras: number
  /**
   * The bearer token `/metrics` asks for (`SWITCH_METRICS_TOKEN`); unset, the metrics are open
   * in development and not served in production (ops/OpsRoutes.ts).
   */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  /**
   * Seconds a server keeps answering after it is asked to stop, with /readyz at 503, before it
   * closes (`SWITCH_DRENAJE_SEGUNDOS`, 0): time for a balancer to stop sending it requests.
   */
  readonly drenajeSegundos: number
  /** SWITCH_SMTP_URL: where mail goes (platform/Mailer.ts); none: kept for development, or not sent in production. */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  /** Development without SMTP: the directory that keeps each mail as a file; null keeps them in memory. */
  readonly correosDir: string | null
  /**
   * SWITCH_COLA_DATABASE_URL: where the connections that need a session of their own go (the job
   * queue, graphile-worker, and the key-revocation LISTEN), when DATABASE_URL points at a pooler
   * in transaction mode; unset, they use DATABASE_URL like the rest.
   */
  readonly colaDatabaseUrl: Option.Option<Redacted.Redacted<string>>
  /**
   * The MCP server's endpoint, `MCP_URL` + `/mcp` (default http://localhost:$MCP_PORT/mcp): the
   * one resource (RFC 8707) OAuth access tokens are issued for, their audience (oauth/).
   */
  readonly mcpResource: string
  /** SWITCH_TASA_FUENTE_URL: where the BCV rate is fetched on a schedule (operador/tasa/FuenteTasa.ts); null: set by hand only. */
  readonly tasaFuenteUrl?: string | null
  /** SWITCH_TASA_FUENTE_MINUTOS (60): how often the rate's source is fetched. */
  readonly tasaFuenteMinutos?: number
  /**
   * SWITCH_TASA_SALTO_MAX_PCT (20): a new BCV rate further than this percentage from the one in
   * force waits for a second `tesoreria` operator's confirmation (platform/TasaBcv.ts).
   */
  readonly tasaSaltoMaxPct?: number
  /** SWITCH_ALERTAS_URL: where the operators' alerts are sent as signed webhooks (operador/alertas/); null: console only. */
  readonly alertasUrl?: string | null
  /** SWITCH_ALERTAS_SECRETO (`whsec_…`): the key of the alerts' signatures, as a merchant's webhook secret. */
  readonly alertasSecreto?: string | null
  /** SWITCH_ALERTA_COLA_MINUTOS (60): an item of money in review older than this raises an alert. */
  readonly alertaColaMinutos?: number
  /** SWITCH_ALERTAS_REVISAR_SEGUNDOS (60): how often the alerts' conditions are checked. */
  readonly alertasRevisarSegundos?: number
  /** SWITCH_CARD_URL: the card processor of the card pilot; null starts apps/card-sim beside the server (main.ts). */
  readonly cardUrl?: string | null
  /**
   * SWITCH_CARD_CLAVE: the secret shared with the card processor (it authenticates our calls and
   * signs its callbacks); unset, one derived from the server secret, which the local card-sim gets.
   */
  readonly cardClave?: Redacted.Redacted<string> | null
  /** SWITCH_TARJETA_TECHO (bolivars, 10000): the card pilot's ceiling on the billed total, surcharge included, in cents. */
  readonly tarjetaTecho?: number
  /** SWITCH_TARJETA_CIERRE_SEGUNDOS (60): how often the processor's nightly closes of ended days are looked for. */
  readonly tarjetaCierreSegundos?: number
  /** SWITCH_PORTAL_DIR: the portal's and console's build; unset, the built `apps/portal/dist`. */
  readonly portalDir?: string | null
}

/** What `main.ts` decides before the server's layers: the process, its database and its logs. */
export interface StartupSettings {
  /** PORT (8080). */
  readonly port: number
  /** HOST (127.0.0.1). */
  readonly host: string
  /** SWITCH_DATA_DIR (`./.switch`): the embedded cluster and the generated secret. */
  readonly dataDir: string
  /** SWITCH_WORKERS (1): server processes sharing the port. */
  readonly workers: number
  /** SWITCH_LOG_LEVEL (`info`). */
  readonly logLevel: "All" | "Debug" | "Info" | "Warning" | "Error" | "None"
  /** SWITCH_LOG_FORMATO (`json` in production, `texto` in development). */
  readonly jsonLogs: boolean
  /** SWITCH_PG_POOL (20): connections per process. */
  readonly pgPool: number
  /** SWITCH_PG_PREPARAR (`0` turns off named prepared statements). */
  readonly pgPreparar: boolean
  /** SWITCH_PG_PORT (54329): the embedded cluster's port. */
  readonly pgPort: number
  /** DATABASE_URL; null: the embedded Postgres. */
  readonly databaseUrl: string | null
  /** SWITCH_SECRET; null: generated once into the data directory. */
  readonly secret: string | null
  /** SWITCH_BANK_URL; null: the bank simulator started beside the server. */
  readonly bankUrl: string | null
  /** SWITCH_MIGRATIONS_DATABASE_URL: the schema owner's connection, which migrates and grants DATABASE_URL's role (docs/deploy.md); none: DATABASE_URL's role migrates. */
  readonly migrationsDatabaseUrl: string | null
  /** SWITCH_CARD_URL; null: the card simulator (apps/card-sim) started beside the server. */
  readonly cardUrl: string | null
  /** SWITCH_CARD_CLAVE; null: derived from the server secret ({@link cardClaveFrom}). */
  readonly cardClave: string | null
  /** SWITCH_RELOJ_ARCHIVO (development only): a file holding how many ms the server's clock runs ahead (platform/Reloj.ts). */
  readonly relojArchivo: string | null
}

const ABIERTO: BankCalendar.BankCloseStatus = { _tag: "Abierto" }

/** The banks' close at `at`, as these settings apply it. */
export const bankClose = (settings: ServerSettings, at: Date): BankCalendar.BankCloseStatus =>
  settings.cierreBancario ? BankCalendar.bankCloseStatus(at) : ABIERTO

/** Mercantil's API and the merchant's credentials there; the secrets stay `Redacted`. */
export interface MercantilSettings {
  /** The bank codes it serves (`0105`). */
  readonly bancos: ReadonlyArray<string>
  /** SWITCH_MERCANTIL_URL, up to `/v1` (e.g. `https://apimbu.mercantilbanco.com/mercantil-banco/prod`). */
  readonly url: string
  readonly integratorId: string
  readonly merchantId: string
  readonly terminalId: string
  readonly clientId: Redacted.Redacted<string>
  readonly secreto: Redacted.Redacted<string>
  /** SWITCH_MERCANTIL_TELEFONO: the merchant's affiliated phone, when its account is not a phone. */
  readonly telefono?: string | undefined
}

/** The Mercantil settings, each with its variable, in the order a missing one is named. */
const MERCANTIL_VARIABLES = [
  ["url", "SWITCH_MERCANTIL_URL"],
  ["integratorId", "SWITCH_MERCANTIL_INTEGRATOR_ID"],
  ["merchantId", "SWITCH_MERCANTIL_MERCHANT_ID"],
  ["terminalId", "SWITCH_MERCANTIL_TERMINAL_ID"],
  ["clientId", "SWITCH_MERCANTIL_CLIENT_ID"],
  ["secreto", "SWITCH_MERCANTIL_SECRETO"]
] as const

/**
 * What development uses when a Mercantil variable is unset: apps/bank-sim's Mercantil dialect
 * and the simulator's own test credentials (apps/bank-sim/src/Mercantil.ts). Never production.
 */
export const MERCANTIL_SIMULADOR = {
  integratorId: "1",
  merchantId: "200000",
  terminalId: "bank-sim",
  clientId: "bank-sim-client-id",
  secreto: "bank-sim-secreto-mercantil",
  /** The merchant's affiliated phone at the simulator, for a merchant whose account is a number. */
  telefono: "04120000105"
} as const

/** SWITCH_BANCO_ADAPTADORES (`0105=mercantil,...`): bank codes with their own adapter. */
const adaptadores = (
  env: NodeJS.ProcessEnv
): Either.Either<ReadonlyArray<readonly [string, string]>, string> => {
  const pares: Array<readonly [string, string]> = []
  for (const entry of (env.SWITCH_BANCO_ADAPTADORES ?? "").split(",")) {
    if (entry.trim() === "") continue
    const [banco = "", adaptador = ""] = entry.split("=").map((x) => x.trim())
    if (!/^\d{4}$/.test(banco) || adaptador !== "mercantil")
      return Either.left(
        `SWITCH_BANCO_ADAPTADORES=${env.SWITCH_BANCO_ADAPTADORES} no es válido: use código=adaptador, p. ej. 0105=mercantil`
      )
    pares.push([banco, adaptador])
  }
  return Either.right(pares)
}

/**
 * The Mercantil settings from `env`, read once at start. A production start with Mercantil
 * configured and a credential missing fails with one line naming every missing variable;
 * development fills the gaps with the simulator's dialect at `bankUrl`.
 */
export const mercantilFromEnv = (
  env: NodeJS.ProcessEnv,
  environment: Environment,
  bankUrl: string | null
): Either.Either<MercantilSettings | undefined, string> =>
  Either.flatMap(adaptadores(env), (pares) => {
    const bancos = pares.filter(([, a]) => a === "mercantil").map(([b]) => b)
    if (bancos.length === 0) return Either.right(undefined)
    // Each read by its name here, so the settings' check (Config.test.ts) sees it.
    const given: Readonly<Record<(typeof MERCANTIL_VARIABLES)[number][0], string | undefined>> = {
      url: env.SWITCH_MERCANTIL_URL,
      integratorId: env.SWITCH_MERCANTIL_INTEGRATOR_ID,
      merchantId: env.SWITCH_MERCANTIL_MERCHANT_ID,
      terminalId: env.SWITCH_MERCANTIL_TERMINAL_ID,
      clientId: env.SWITCH_MERCANTIL_CLIENT_ID,
      secreto: env.SWITCH_MERCANTIL_SECRETO
    }
    const faltan = MERCANTIL_VARIABLES.filter(([key]) => !given[key]).map(([, name]) => name)
    if (environment === "production" && faltan.length > 0)
      return Either.left(
        `Mercantil (${bancos.join(", ")}) está en SWITCH_BANCO_ADAPTADORES y faltan ${faltan.join(", ")}: defínalas (docs/deploy.md) o quite el banco`
      )
    const simulador = bankUrl === null ? null : `${bankUrl}/mercantil-banco/sandbox`
    const url = (given.url || simulador || "").replace(/\/+$/, "")
    if (url === "")
      return Either.left("Mercantil está en SWITCH_BANCO_ADAPTADORES y falta SWITCH_MERCANTIL_URL")
    const value = (key: keyof typeof given, fallback: string) => given[key] || fallback
    return Either.right({
      bancos,
      url,
      integratorId: value("integratorId", MERCANTIL_SIMULADOR.integratorId),
      merchantId: value("merchantId", MERCANTIL_SIMULADOR.merchantId),
      terminalId: value("terminalId", MERCANTIL_SIMULADOR.terminalId),
      clientId: Redacted.make(value("clientId", MERCANTIL_SIMULADOR.clientId)),
      secreto: Redacted.make(value("secreto", MERCANTIL_SIMULADOR.secreto)),
      ...(env.SWITCH_MERCANTIL_TELEFONO
        ? { telefono: env.SWITCH_MERCANTIL_TELEFONO }
        : environment === "development"
          ? { telefono: MERCANTIL_SIMULADOR.telefono }
          : {})
    })
  })

export class Settings extends Context.Tag("@switch/server/Settings")<Settings, ServerSettings>() {}

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : fallback
}

const positiveNumber = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback
}

/** The limits SPEC sets; raising one above its default is a development switch. */
const DEFAULT_LIMITS = {
  SWITCH_API_POR_MINUTO: 120,
  SWITCH_VERIFICAR_POR_MINUTO: 20,
  SWITCH_REGISTROS_POR_HORA: 100
} as const

/**
 * The development switches and, for each, whether a value turns it on. The two flags are on
 * for any value but the production one, so a production start never guesses what was meant.
 */
const DEVELOPMENT_SWITCHES: ReadonlyArray<readonly [name: string, on: (value: string) => boolean]> = [
  ["SWITCH_WEBHOOK_ALLOW_PRIVATE", (value) => value !== "0"],
  ["SWITCH_CIERRE_BANCARIO", (value) => value !== "1"],
  ["SWITCH_WEBHOOK_BACKOFF_ESCALA", (value) => positiveNumber(value, 1) !== 1],
  ["SWITCH_RELOJ_ARCHIVO", (value) => value !== ""],
  ...Object.entries(DEFAULT_LIMITS).map(
    ([name, limit]) => [name, (value: string) => positiveInt(value, limit) > limit] as const
  )
]

/**
 * SWITCH_ENV, or its default: `development` on embedded Postgres (DATABASE_URL unset or empty),
 * `production` with DATABASE_URL. Fails with a one-line message, naming the variable, for an
 * unknown SWITCH_ENV, a development switch set in production, or SWITCH_MIGRATIONS_DATABASE_URL
 * without DATABASE_URL (the embedded cluster has one role); the server then refuses to start.
 */
export const checkEnvironment = (env: NodeJS.ProcessEnv): Either.Either<Environment, string> => {
  if (env.SWITCH_MIGRATIONS_DATABASE_URL && !env.DATABASE_URL)
    return Either.left(
      "SWITCH_MIGRATIONS_DATABASE_URL necesita DATABASE_URL (el rol del servidor): quítela o defina DATABASE_URL"
    )
  const given = env.SWITCH_ENV ?? ""
  if (given !== "" && given !== "development" && given !== "production")
    return Either.left(`SWITCH_ENV=${given} no es válido: use development o production`)
  const environment: Environment = given !== "" ? given : env.DATABASE_URL ? "production" : "development"
  if (environment === "development") return Either.right(environment)
  for (const [name, on] of DEVELOPMENT_SWITCHES) {
    const value = env[name]
    if (value !== undefined && value !== "" && on(value))
      return Either.left(
        `${name}=${value} es solo para desarrollo y SWITCH_ENV es production${given === "" ? " (el valor por defecto con DATABASE_URL)" : ""}: quítela o use SWITCH_ENV=development`
      )
  }
  return Either.right(environment)
}

/** HOST: the address the API listens on (127.0.0.1: only this machine). */
export const hostFromEnv = (env: NodeJS.ProcessEnv): string => env.HOST || "127.0.0.1"

const LOG_LEVELS = ["All", "Debug", "Info", "Warning", "Error", "None"] as const

/** The start-up settings `main.ts` reads (see {@link StartupSettings} for each default). */
export const startupFromEnv = (env: NodeJS.ProcessEnv, environment: Environment): StartupSettings => ({
  port: Number(env.PORT ?? 8080),
  host: hostFromEnv(env),
  dataDir: resolve(env.SWITCH_DATA_DIR ?? ".switch"),
  workers: Math.max(1, Number(env.SWITCH_WORKERS ?? 1) || 1),
  logLevel: LOG_LEVELS.find((l) => l.toLowerCase() === env.SWITCH_LOG_LEVEL) ?? "Info",
  jsonLogs: (env.SWITCH_LOG_FORMATO ?? (environment === "production" ? "json" : "texto")) === "json",
  pgPool: Number(env.SWITCH_PG_POOL ?? 20),
  pgPreparar: env.SWITCH_PG_PREPARAR !== "0",
  pgPort: Number(env.SWITCH_PG_PORT ?? 54329),
  databaseUrl: env.DATABASE_URL ? env.DATABASE_URL : null,
  secret: env.SWITCH_SECRET ? env.SWITCH_SECRET : null,
  bankUrl: env.SWITCH_BANK_URL ? env.SWITCH_BANK_URL : null,
  migrationsDatabaseUrl: env.SWITCH_MIGRATIONS_DATABASE_URL ? env.SWITCH_MIGRATIONS_DATABASE_URL : null,
  cardUrl: env.SWITCH_CARD_URL ? env.SWITCH_CARD_URL : null,
  cardClave: env.SWITCH_CARD_CLAVE ? env.SWITCH_CARD_CLAVE : null,
  relojArchivo: env.SWITCH_RELOJ_ARCHIVO ? resolve(env.SWITCH_RELOJ_ARCHIVO) : null
})

/** Reads the settings from `env`; `secret` comes from SWITCH_SECRET or the data directory. */
export const fromEnv = (
  env: NodeJS.ProcessEnv,
  secret: string,
  port: number,
  environment: Environment
): ServerSettings => ({
  environment,
  baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
  secret: Redacted.make(secret),
  adminToken: env.SWITCH_ADMIN_TOKEN ? Option.some(Redacted.make(env.SWITCH_ADMIN_TOKEN)) : Option.none(),
  verificarPorMinuto: positiveInt(
    env.SWITCH_VERIFICAR_POR_MINUTO,
    DEFAULT_LIMITS.SWITCH_VERIFICAR_POR_MINUTO
  ),
  registrosPorHora: positiveInt(env.SWITCH_REGISTROS_POR_HORA, DEFAULT_LIMITS.SWITCH_REGISTROS_POR_HORA),
  apiPorMinuto: positiveInt(env.SWITCH_API_POR_MINUTO, DEFAULT_LIMITS.SWITCH_API_POR_MINUTO),
  housekeepingSeconds: positiveInt(env.SWITCH_HOUSEKEEPING_SEGUNDOS, 15),
  ...(env.SWITCH_CUATRO_OJOS_DESDE
    ? { cuatroOjosDesde: positiveNumber(env.SWITCH_CUATRO_OJOS_DESDE, 0) }
    : {}),
  webhookAllowPrivate: env.SWITCH_WEBHOOK_ALLOW_PRIVATE === "1",
  webhookBackoffEscala: positiveNumber(env.SWITCH_WEBHOOK_BACKOFF_ESCALA, 1),
  bankUrl: env.SWITCH_BANK_URL ? env.SWITCH_BANK_URL.replace(/\/+$/, "") : null,
  bankTimeoutMs: positiveInt(env.SWITCH_BANK_TIMEOUT_MS, 15_000),
  mercantil: Either.getOrUndefined(
    mercantilFromEnv(env, environment, env.SWITCH_BANK_URL ? env.SWITCH_BANK_URL.replace(/\/+$/, "") : null)
  ),
  conciliarSegundos: positiveNumber(env.SWITCH_CONCILIAR_SEGUNDOS, 30),
  conciliarAbandonoSegundos: positiveNumber(env.SWITCH_CONCILIAR_ABANDONO_SEGUNDOS, 4 * 3600),
  cierreBancario: env.SWITCH_CIERRE_BANCARIO !== "0",
  proxiesConfiables: (env.SWITCH_PROXIES_CONFIABLES ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== ""),
  tasaMaxHoras: positiveNumber(env.SWITCH_TASA_MAX_HORAS, 48),
  metricsToken: env.SWITCH_METRICS_TOKEN
    ? Option.some(Redacted.make(env.SWITCH_METRICS_TOKEN))
    : Option.none(),
  drenajeSegundos: positiveNumber(env.SWITCH_DRENAJE_SEGUNDOS, 0),
  smtpUrl: env.SWITCH_SMTP_URL ? Option.some(Redacted.make(env.SWITCH_SMTP_URL)) : Option.none(),
  correosDir: environment === "development" ? resolve(env.SWITCH_DATA_DIR ?? ".switch", "correos") : null,
  colaDatabaseUrl: env.SWITCH_COLA_DATABASE_URL
    ? Option.some(Redacted.make(env.SWITCH_COLA_DATABASE_URL))
    : Option.none(),
  mcpResource: `${(env.MCP_URL ?? `http://localhost:${env.MCP_PORT ?? 8081}`).replace(/\/+$/, "")}/mcp`,
  tasaFuenteUrl: env.SWITCH_TASA_FUENTE_URL ? env.SWITCH_TASA_FUENTE_URL : null,
  tasaFuenteMinutos: positiveNumber(env.SWITCH_TASA_FUENTE_MINUTOS, 60),
  tasaSaltoMaxPct: positiveNumber(env.SWITCH_TASA_SALTO_MAX_PCT, 20),
  alertasUrl: env.SWITCH_ALERTAS_URL ? env.SWITCH_ALERTAS_URL : null,
  alertasSecreto: env.SWITCH_ALERTAS_SECRETO ? env.SWITCH_ALERTAS_SECRETO : null,
  alertaColaMinutos: positiveNumber(env.SWITCH_ALERTA_COLA_MINUTOS, 60),
  alertasRevisarSegundos: positiveNumber(env.SWITCH_ALERTAS_REVISAR_SEGUNDOS, 60),
  cardUrl: env.SWITCH_CARD_URL ? env.SWITCH_CARD_URL.replace(/\/+$/, "") : null,
  cardClave: Redacted.make(env.SWITCH_CARD_CLAVE || cardClaveFrom(secret)),
  tarjetaTecho: Math.round(positiveNumber(env.SWITCH_TARJETA_TECHO, 10_000) * 100),
  tarjetaCierreSegundos: positiveNumber(env.SWITCH_TARJETA_CIERRE_SEGUNDOS, 60),
  portalDir: env.SWITCH_PORTAL_DIR ? env.SWITCH_PORTAL_DIR : null
})

/** The card processor's shared secret when SWITCH_CARD_CLAVE is unset: derived from the server secret. */
export const cardClaveFrom = (secret: string): string =>
  createHmac("sha256", secret).update("switch:card-sim").digest("base64url")

/** The card pilot's ceiling in cents (SWITCH_TARJETA_TECHO, Bs 10.000 by default). */
