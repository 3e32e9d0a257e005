/** Handlers of the one-time password routes (public, limited per address) and the team routes. */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, SwitchApi } from "@switch/api"
import type { RateLimit } from "@switch/core"
import { Effect } from "effect"
import { clientIp, tooMany } from "../http/Auth.js"
import { RateLimiter } from "../platform/RateLimiter.js"
import { EquipoService } from "./EquipoService.js"

/** Forgotten-password mails asked from one address per hour. */
export const OLVIDO_POR_HORA = 10
/** Passwords set (or tokens tried) from one address per hour. */
export const DEFINIR_POR_HORA = 30

const perIp = (name: string, limit: number): RateLimit.Policy => ({
  name,
  limit,
  windowSeconds: 3600,
  scope: "ip",
  liveOnly: false
})

export const ContrasenaApiLive = HttpApiBuilder.group(SwitchApi, "contrasena", (handlers) =>
  Effect.gen(function* () {
    const equipo = yield* EquipoService
    const limiter = yield* RateLimiter
    const limited = <A, E, R>(policy: RateLimit.Policy, effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function* () {
        const decision = yield* limiter.hit(policy, yield* clientIp)
        if (!decision.allowed) return yield* Effect.fail(tooMany(decision.retryAfterSeconds))
        return yield* effect
      })
    const olvidoPolicy = perIp("contrasena_olvido", OLVIDO_POR_HORA)
    const definirPolicy = perIp("contrasena_definir", DEFINIR_POR_HORA)
    return (
      handlers
        .handle("olvido", ({ payload }) => limited(olvidoPolicy, equipo.olvido(payload.email)))
        .handle("definir", ({ payload }) => limited(definirPolicy, equipo.definir(payload)))
        // The same budget per address as defining a password: both spend a one-time token.
        .handle("verificarCorreo", ({ payload }) =>
          limited(definirPolicy, equipo.verificarCorreo(payload.token))
        )
    )
  })
)

export const EquipoApiLive = HttpApiBuilder.group(SwitchApi, "equipo", (handlers) =>
  Effect.gen(function* () {
    const equipo = yield* EquipoService
    return handlers
      .handle("list", () => Effect.flatMap(CurrentCaller, equipo.list))
      .handle("invitar", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => equipo.invitar(caller, payload))
      )
      .handle("cambiarRol", ({ path, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => equipo.cambiarRol(caller, path.id, payload.rol))
      )
      .handle("eliminar", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => equipo.eliminar(caller, path.id))
      )
  })
)
