/**
 * The `x-switch-key` middleware: finds the key by its hash, checks the merchant code matches,
 * counts the merchant's request (120 per minute, both modes) and provides the caller.
 * Requests without a valid key are counted per IP, never against a merchant.
 */
import { HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Authentication, type Caller, TooManyRequests, Unauthorized } from "@switch/api"
import { RateLimit } from "@switch/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.js"
import * as Keys from "../merchants/Keys.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import * as KeyCache from "./KeyCache.js"

/** The caller's address as the socket saw it (proxies are not trusted by default). */
export const clientIp = HttpServerRequest.HttpServerRequest.pipe(
  Effect.map((request) => Option.getOrElse(request.remoteAddress, () => "desconocida"))
)

export const tooMany = (retryAfterSeconds: number) =>
  new TooManyRequests({
    detail: `Demasiadas solicitudes. Intenta de nuevo en ${retryAfterSeconds} s.`,
    reintentar_en: retryAfterSeconds
  })

/** Looks a key up; none when unknown, revoked, or of another merchant. */
export const lookupCaller = (header: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const parsed = Keys.parseHeader(header)
    if (Option.isNone(parsed)) return Option.none<Caller>()
    const { codigo, key, mode } = parsed.value
    const hash = Keys.hash(key)
    const now = Date.now()
    const cached = KeyCache.get(hash, now)
    if (cached !== undefined) {
      return cached.codigo === codigo && cached.caller.mode === mode
        ? Option.some(cached.caller)
        : Option.none<Caller>()
    }
    const rows = yield* sql<{ llave_id: string; comercio_id: string; codigo: string }>`
      select l.id as llave_id, c.id as comercio_id, c.codigo
      from llaves l join comercios c on c.id = l.comercio_id
      where l.hash = ${hash} and l.revoked_at is null and l.mode = ${mode}`
    const row = rows[0]
    if (row === undefined) return Option.none<Caller>()
    const caller: Caller = { comercioId: row.comercio_id, codigo: row.codigo, mode, llaveId: row.llave_id }
    KeyCache.put(hash, caller, now)
    return row.codigo === codigo ? Option.some(caller) : Option.none<Caller>()
  }).pipe(Effect.orDie)

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const limiter = yield* RateLimiter
    const settings = yield* Settings
    const perMerchant: RateLimit.Policy = { ...RateLimit.API, limit: settings.apiPorMinuto }
    const perIp: RateLimit.Policy = { ...perMerchant, name: "api_ip", scope: "ip" }
    return {
      "x-switch-key": (header) =>
        Effect.gen(function* () {
          const caller = yield* lookupCaller(Redacted.value(header)).pipe(
            Effect.provideService(SqlClient.SqlClient, sql)
          )
          if (Option.isNone(caller)) {
            const ip = yield* clientIp
            const decision = yield* limiter.hit(perIp, ip)
            return yield* Effect.fail(
              decision.allowed
                ? new Unauthorized({ detail: "Falta la llave x-switch-key, es inválida o fue revocada." })
                : tooMany(decision.retryAfterSeconds)
            )
          }
          const decision = yield* limiter.hit(perMerchant, caller.value.comercioId)
          if (!decision.allowed) return yield* Effect.fail(tooMany(decision.retryAfterSeconds))
          return caller.value
        })
    }
  })
)
