import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { checkEnvironment, fromEnv, hostFromEnv, startupFromEnv } from "./Config.js"

const DATABASE_URL = "postgres://switch:switch@127.0.0.1:5432/switch"

/** The refusal's message, or null when the start is allowed. */
const refusal = (env: NodeJS.ProcessEnv): string | null =>
  Either.match(checkEnvironment(env), { onLeft: (message) => message, onRight: () => null })

describe("SWITCH_ENV", () => {
  it("is development on embedded Postgres and production with DATABASE_URL", () => {
    expect(checkEnvironment({})).toEqual(Either.right("development"))
    expect(checkEnvironment({ DATABASE_URL: "" })).toEqual(Either.right("development"))
    expect(checkEnvironment({ DATABASE_URL })).toEqual(Either.right("production"))
    expect(checkEnvironment({ DATABASE_URL, SWITCH_ENV: "development" })).toEqual(Either.right("development"))
    expect(checkEnvironment({ SWITCH_ENV: "production" })).toEqual(Either.right("production"))
  })

  it("SWITCH_MIGRATIONS_DATABASE_URL is refused without DATABASE_URL, in one line naming both", () => {
    const owner = "postgres://switch_dueno:x@127.0.0.1:5432/switch"
    for (const env of [
      {},
      { DATABASE_URL: "" },
      { SWITCH_ENV: "development" },
      { SWITCH_ENV: "production" }
    ]) {
      const message = refusal({ ...env, SWITCH_MIGRATIONS_DATABASE_URL: owner })
      expect(message).toContain("SWITCH_MIGRATIONS_DATABASE_URL")
      expect(message).toContain("DATABASE_URL (el rol del servidor)")
      expect(message).not.toContain("\n")
    }
    expect(checkEnvironment({ DATABASE_URL, SWITCH_MIGRATIONS_DATABASE_URL: owner })).toEqual(
      Either.right("production")
    )
  })

  it("an unknown SWITCH_ENV is refused, naming it", () => {
    expect(refusal({ SWITCH_ENV: "prod" })).toBe("SWITCH_ENV=prod no es válido: use development o production")
    expect(refusal({ SWITCH_ENV: "Development" })).toContain("SWITCH_ENV")
  })

  it.each([
    ["SWITCH_WEBHOOK_ALLOW_PRIVATE", "1"],
    ["SWITCH_WEBHOOK_ALLOW_PRIVATE", "true"],
    ["SWITCH_CIERRE_BANCARIO", "0"],
    ["SWITCH_WEBHOOK_BACKOFF_ESCALA", "0.0001"],
    ["SWITCH_RELOJ_ARCHIVO", "reloj.txt"],
    ["SWITCH_API_POR_MINUTO", "121"],
    ["SWITCH_VERIFICAR_POR_MINUTO", "21"],
    ["SWITCH_REGISTROS_POR_HORA", "101"]
  ])(
    "in production (DATABASE_URL, or SWITCH_ENV=production) the development switch %s=%s is refused in one line naming it",
    (name, value) => {
      for (const env of [{ DATABASE_URL }, { SWITCH_ENV: "production" }]) {
        const message = refusal({ ...env, [name]: value })
        expect(message).toContain(`${name}=${value}`)
        expect(message).toContain("SWITCH_ENV=development")
        expect(message).not.toContain("\n")
      }
      expect(checkEnvironment({ [name]: value })).toEqual(Either.right("development"))
      expect(checkEnvironment({ DATABASE_URL, SWITCH_ENV: "development", [name]: value })).toEqual(
        Either.right("development")
      )
    }
  )

  it.each([
    ["SWITCH_WEBHOOK_ALLOW_PRIVATE", "0"],
    ["SWITCH_WEBHOOK_ALLOW_PRIVATE", ""],
    ["SWITCH_CIERRE_BANCARIO", "1"],
    ["SWITCH_WEBHOOK_BACKOFF_ESCALA", "1"],
    ["SWITCH_API_POR_MINUTO", "120"],
    ["SWITCH_API_POR_MINUTO", "40"],
    ["SWITCH_VERIFICAR_POR_MINUTO", "20"],
    ["SWITCH_REGISTROS_POR_HORA", "50"],
    ["SWITCH_HOUSEKEEPING_SEGUNDOS", "1"]
  ])("in production %s=%s (the default or stricter) is allowed", (name, value) => {
    expect(checkEnvironment({ DATABASE_URL, [name]: value })).toEqual(Either.right("production"))
  })
})

describe("settings", () => {
  it("HOST defaults to 127.0.0.1 and SWITCH_TASA_MAX_HORAS to 48", () => {
    expect(hostFromEnv({})).toBe("127.0.0.1")
    expect(hostFromEnv({ HOST: "" })).toBe("127.0.0.1")
    expect(hostFromEnv({ HOST: "0.0.0.0" })).toBe("0.0.0.0")
    expect(fromEnv({}, "s", 8080, "development").tasaMaxHoras).toBe(48)
    expect(fromEnv({ SWITCH_TASA_MAX_HORAS: "12.5" }, "s", 8080, "production").tasaMaxHoras).toBe(12.5)
    expect(fromEnv({ SWITCH_TASA_MAX_HORAS: "-3" }, "s", 8080, "production").tasaMaxHoras).toBe(48)
  })

  it("SWITCH_TASA_SALTO_MAX_PCT defaults to 20 and SWITCH_PORTAL_DIR to none; start-up settings keep their defaults", () => {
    expect(fromEnv({}, "s", 8080, "development")).toMatchObject({ tasaSaltoMaxPct: 20, portalDir: null })
    expect(fromEnv({ SWITCH_TASA_SALTO_MAX_PCT: "7.5" }, "s", 8080, "production").tasaSaltoMaxPct).toBe(7.5)
    expect(fromEnv({ SWITCH_TASA_SALTO_MAX_PCT: "0" }, "s", 8080, "production").tasaSaltoMaxPct).toBe(20)
    expect(startupFromEnv({}, "development")).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      workers: 1,
      logLevel: "Info",
      jsonLogs: false,
      pgPool: 20,
      pgPreparar: true,
      pgPort: 54329,
      databaseUrl: null,
      secret: null,
      bankUrl: null
    })
    expect(startupFromEnv({}, "production").jsonLogs).toBe(true)
    expect(
      startupFromEnv(
        { SWITCH_LOG_LEVEL: "debug", SWITCH_WORKERS: "x", SWITCH_PG_PREPARAR: "0" },
        "production"
      )
    ).toMatchObject({ logLevel: "Debug", workers: 1, pgPreparar: false })
  })

  it("are read only in Config.ts, and docs/deploy.md names each one with its default", () => {
    const src = fileURLToPath(new URL(".", import.meta.url))
    const read = (file: string) => readFileSync(file, "utf8")
    const files = (dir: string): Array<string> =>
      readdirSync(dir).flatMap((name) => {
        const full = join(dir, name)
        return statSync(full).isDirectory() ? files(full) : full.endsWith(".ts") ? [full] : []
      })
    const config = read(join(src, "Config.ts"))
    const names = new Set([...config.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] as string))
    expect(names.size).toBeGreaterThan(35)
    // No other source reads a setting (handing the environment on to a child process is not reading one).
    const elsewhere = files(src)
      .filter((f) => !f.endsWith(".test.ts") && !f.endsWith(`${join("src", "Config.ts")}`))
      .flatMap((f) =>
        [...read(f).matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]+)\b(?!\s*=[^=])|\[)/g)].map(
          (m) => `${f.slice(src.length)}: ${m[0]}`
        )
      )
    expect(elsewhere).toEqual([])
    const deploy = read(join(src, "..", "..", "..", "docs", "deploy.md"))
    const table = new Map(
      [...deploy.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((m) => [
        m[1] ?? "",
        (m[2] ?? "").trim()
      ])
    )
    for (const name of names) expect(table.get(name), `${name} in docs/deploy.md`).toMatch(/\S/)
    expect(
      [...table.keys()].filter((name) => !names.has(name)),
      "documented but never read"
    ).toEqual([])
  })
})
