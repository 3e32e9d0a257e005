/**
 * Handlers of the portal's session routes: sign in (sets the cookie), see, switch mode, sign out.
 * The answers that carry the session's CSRF token (sign in, see, switch mode) are never cached.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { CurrentCaller, SESSION_COOKIE, SwitchApi, sessionCookie, ValidationError } from "@switch/api"
import { Effect } from "effect"
import { Settings } from "../Config.js"
import { clientIp } from "../http/Auth.js"
import { sentContentType } from "../http/JsonBody.js"
import { noStore } from "../http/Respond.js"
import { ABSOLUTE_HOURS } from "../http/Session.js"
import { SesionesService } from "./SesionesService.js"

/** The cookie's attributes: HttpOnly, SameSite=Lax, Path=/, Secure when the service is on https. */
const cookieOptions = Effect.map(Settings, (settings) => ({
  httpOnly: true,
  secure: settings.baseUrl.startsWith("https:"),
  sameSite: "lax" as const,
  path: "/"
}))

const setCookie = (token: string) =>
  Effect.flatMap(cookieOptions, (options) =>
    HttpApiBuilder.securitySetCookie(sessionCookie, token, { ...options, maxAge: `${ABSOLUTE_HOURS} hours` })
  )

const clearCookie = Effect.flatMap(cookieOptions, (options) =>
  HttpApiBuilder.securitySetCookie(sessionCookie, "", { ...options, maxAge: 0 })
)

export const SesionPublicApiLive = HttpApiBuilder.group(SwitchApi, "sesionPublica", (handlers) =>
  Effect.gen(function* () {
    const sesiones = yield* SesionesService
    const settings = yield* Settings
    return handlers.handle("iniciar", ({ payload }) =>
      Effect.gen(function* () {
        // The answer carries the session's CSRF token: no cache keeps it.
        yield* noStore
        const request = yield* HttpServerRequest.HttpServerRequest
        // JSON only: a form another site posts (no preflight) must not sign a browser in (login CSRF).
        if (!(sentContentType(request) ?? "").toLowerCase().startsWith("application/json"))
          return yield* Effect.fail(
            new ValidationError({ detail: { fieldErrors: { _: ["el cuerpo debe ser application/json"] } } })
          )
        const signed = yield* sesiones.iniciar(payload, yield* clientIp, request.cookies[SESSION_COOKIE])
        yield* setCookie(signed.token).pipe(Effect.provideService(Settings, settings))
        return signed.sesion
      })
    )
  })
)

export const SesionApiLive = HttpApiBuilder.group(SwitchApi, "sesion", (handlers) =>
  Effect.gen(function* () {
    const sesiones = yield* SesionesService
    const settings = yield* Settings
    const clear = Effect.provideService(clearCookie, Settings, settings)
    return handlers
      .handle("actual", () => Effect.zipRight(noStore, Effect.flatMap(CurrentCaller, sesiones.actual)))
      .handle("cerrar", () =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(Effect.zipLeft(sesiones.cerrar(caller), clear), (cerradas) => ({
            ok: true as const,
            cerradas
          }))
        )
      )
      .handle("cerrarTodas", () =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(Effect.zipLeft(sesiones.cerrarTodas(caller), clear), (cerradas) => ({
            ok: true as const,
            cerradas
          }))
        )
      )
      .handle("modo", ({ payload }) =>
        Effect.zipRight(
          noStore,
          Effect.flatMap(CurrentCaller, (caller) => sesiones.modo(caller, payload.mode))
        )
      )
  })
)
