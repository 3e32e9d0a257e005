/** Server settings from the environment (DESIGN.md §4), read once at start. */
import { BankCalendar } from "@switch/core"
import { Context, Option, Redacted } from "effect"

export interface ServerSettings {
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
  /** SWITCH_WEBHOOK_ALLOW_PRIVATE=1, development only: webhooks may use http, any port and private addresses. */
  readonly webhookAllowPrivate: boolean
  /** SWITCH_WEBHOOK_BACKOFF_ESCALA: multiplies DESIGN's retry delays (1; tests use 0.0001). */
  readonly webhookBackoffEscala: number
  /** SWITCH_BANK_URL: the live-mode bank; null starts the bank simulator beside the server (main.ts). */
  readonly bankUrl: string | null
  /** SWITCH_BANK_TIMEOUT_MS: how long a bank call may take before its outcome is unknown (15000). */
  readonly bankTimeoutMs: number
  /** SWITCH_CONCILIAR_SEGUNDOS: wait between bank queries of an operation with no final answer (30). */
  readonly conciliarSegundos: number
  /**
   * SWITCH_CONCILIAR_ABANDONO_SEGUNDOS: after this, an operation the bank never saw (direct API,
   * or a payment on the page) is settled as not done (4 h).
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
}

const ABIERTO: BankCalendar.BankCloseStatus = { _tag: "Abierto" }

/** The banks' close at `at`, as these settings apply it. */
export const bankClose = (settings: ServerSettings, at: Date): BankCalendar.BankCloseStatus =>
  settings.cierreBancario ? BankCalendar.bankCloseStatus(at) : ABIERTO

export class Settings extends Context.Tag("@switch/server/Settings")<Settings, ServerSettings>() {}

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : fallback
}

const positiveNumber = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback
}

/** HOST: the address the API listens on (127.0.0.1: only this machine). */
export const hostFromEnv = (env: NodeJS.ProcessEnv): string => env.HOST || "127.0.0.1"

/** Reads the settings from `env`; `secret` comes from SWITCH_SECRET or the data directory. */
export const fromEnv = (env: NodeJS.ProcessEnv, secret: string, port: number): ServerSettings => ({
  baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
  secret: Redacted.make(secret),
  adminToken: env.SWITCH_ADMIN_TOKEN ? Option.some(Redacted.make(env.SWITCH_ADMIN_TOKEN)) : Option.none(),
  verificarPorMinuto: positiveInt(env.SWITCH_VERIFICAR_POR_MINUTO, 20),
  registrosPorHora: positiveInt(env.SWITCH_REGISTROS_POR_HORA, 100),
  apiPorMinuto: positiveInt(env.SWITCH_API_POR_MINUTO, 120),
  housekeepingSeconds: positiveInt(env.SWITCH_HOUSEKEEPING_SEGUNDOS, 15),
  webhookAllowPrivate: env.SWITCH_WEBHOOK_ALLOW_PRIVATE === "1",
  webhookBackoffEscala: positiveNumber(env.SWITCH_WEBHOOK_BACKOFF_ESCALA, 1),
  bankUrl: env.SWITCH_BANK_URL ? env.SWITCH_BANK_URL.replace(/\/+$/, "") : null,
  bankTimeoutMs: positiveInt(env.SWITCH_BANK_TIMEOUT_MS, 15_000),
  conciliarSegundos: positiveNumber(env.SWITCH_CONCILIAR_SEGUNDOS, 30),
  conciliarAbandonoSegundos: positiveNumber(env.SWITCH_CONCILIAR_ABANDONO_SEGUNDOS, 4 * 3600),
  cierreBancario: env.SWITCH_CIERRE_BANCARIO !== "0",
  proxiesConfiables: (env.SWITCH_PROXIES_CONFIABLES ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
})
