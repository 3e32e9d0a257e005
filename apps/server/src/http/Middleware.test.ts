import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { withBoundary } from "./Middleware.js"

const disposers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose()
})

/** The boundary around `app` as a web handler, logging into `lines` from `level` up. */
const serve = (app: HttpApp.Default, level: LogLevel.LogLevel, lines: Array<string>) => {
  const logs = Layer.merge(
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ message }) => lines.push(String(message)))
    ),
    Logger.minimumLogLevel(level)
  )
  const { handler, dispose } = HttpApp.toWebHandlerLayer(withBoundary(app), logs)
  disposers.push(dispose)
  return handler
}

describe("the HTTP boundary", () => {
  it("gives every answer a request id and logs one access line at info, without the query", async () => {
    const lines: Array<string> = []
    const handler = serve(Effect.succeed(HttpServerResponse.text("ok")), LogLevel.Info, lines)
    const response = await handler(new Request("http://x/switch/v1/links?q=secreto"))
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^GET \/switch\/v1\/links 200 \d+ms$/)
  })

  it("builds no access line when info logs are off, and still answers SPEC's 404 and 429 shapes", async () => {
    const lines: Array<string> = []
    const empty404 = serve(Effect.succeed(HttpServerResponse.empty({ status: 404 })), LogLevel.Warning, lines)
    const notFound = await empty404(new Request("http://x/nada"))
    expect(await notFound.json()).toEqual({ error: "not_found" })
    expect(notFound.headers.get("x-request-id")).not.toBeNull()
    const limited = serve(
      Effect.succeed(
        HttpServerResponse.unsafeJson({ error: "rate_limited", reintentar_en: 7 }, { status: 429 })
      ),
      LogLevel.Warning,
      lines
    )
    expect((await limited(new Request("http://x/y"))).headers.get("retry-after")).toBe("7")
    expect(lines).toEqual([])
  })

  it("the public routes answer browsers of any origin, preflights included", async () => {
    const handler = serve(Effect.succeed(HttpServerResponse.unsafeJson({ ok: true })), LogLevel.Warning, [])
    const origin = { origin: "https://tienda.example" }
    for (const path of [
      "/switch/v1/verificar/SW-ABCDE-FGHJK",
      "/estado.json",
      "/switch/v1/estado.json",
      "/boton.js"
    ]) {
      const get = await handler(new Request(`http://x${path}`, { headers: origin }))
      expect(get.headers.get("access-control-allow-origin")).toBe("*")
      const pre = await handler(
        new Request(`http://x${path}`, {
          method: "OPTIONS",
          headers: { ...origin, "access-control-request-method": "GET" }
        })
      )
      expect(pre.status).toBe(204)
      expect(pre.headers.get("access-control-allow-origin")).toBe("*")
      expect(pre.headers.get("access-control-allow-methods")).toContain("GET")
    }
  })

  it("authenticated routes answer no CORS header, to a preflight or a request", async () => {
    const handler = serve(Effect.succeed(HttpServerResponse.empty({ status: 404 })), LogLevel.Warning, [])
    for (const path of [
      "/switch/v1/links",
      "/switch/v1/logs",
      "/switch/v1/verificar",
      "/switch/v1/verificar/x/y"
    ]) {
      for (const method of ["OPTIONS", "GET"]) {
        const response = await handler(
          new Request(`http://x${path}`, {
            method,
            headers: {
              origin: "https://tienda.example",
              "access-control-request-method": "GET",
              "access-control-request-headers": "x-switch-key"
            }
          })
        )
        const cors = [...response.headers.keys()].filter((name) => name.startsWith("access-control-"))
        expect(cors).toEqual([])
      }
    }
  })
})
