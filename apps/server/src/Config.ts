/** Server settings from the environment (DESIGN.md §4), read once at start. */
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
}

export class Settings extends Context.Tag("@switch/server/Settings")<Settings, ServerSettings>() {}

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : fallback
}

/** Reads the settings from `env`; `secret` comes from SWITCH_SECRET or the data directory. */
export const fromEnv = (env: NodeJS.ProcessEnv, secret: string, port: number): ServerSettings => ({
  baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
  secret: Redacted.make(secret),
  adminToken: env.SWITCH_ADMIN_TOKEN ? Option.some(Redacted.make(env.SWITCH_ADMIN_TOKEN)) : Option.none(),
  verificarPorMinuto: positiveInt(env.SWITCH_VERIFICAR_POR_MINUTO, 20),
  registrosPorHora: positiveInt(env.SWITCH_REGISTROS_POR_HORA, 100),
  apiPorMinuto: positiveInt(env.SWITCH_API_POR_MINUTO, 120),
  housekeepingSeconds: positiveInt(env.SWITCH_HOUSEKEEPING_SEGUNDOS, 15)
})
