/**
 * The request policy against a scripted fetch: what is sent on each attempt and how answers
 * and failures are treated. (The same behaviour against the real server is in test/.)
 */
import { describe, expect, it } from "vitest"
import { ConnectionError, RateLimitError, TimeoutError, ValidationError } from "./Errors.js"
import { Switch } from "./Switch.js"

type Step = Response | Error | "hang"
const scripted = (steps: Array<Step>) => {
  const requests: Array<{ url: string; init: RequestInit }> = []
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    requests.push({ url, init })
    const step = steps.shift()
    if (step === undefined) throw new Error("no more steps")
    if (step === "hang") {
      return new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))
      )
    }
    if (step instanceof Error) throw step
    return step
  }
  return { fetch, requests }
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })
const link = { id: "l1", estado: "pendiente" }
const client = (steps: Array<Step>, extra: Partial<ConstructorParameters<typeof Switch>[0]> = {}) => {
  const { fetch, requests } = scripted(steps)
  const sw = new Switch({
    key: "demo:sk_test_abc",
    baseUrl: "http://api.test/",
    fetch,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    ...extra
  })
  return { sw, requests }
}
const bodyOf = (init: RequestInit) => JSON.parse(String(init.body))

describe("requests", () => {
  it("sends the key, JSON and SPEC's path; strips a trailing slash from baseUrl", async () => {
    const { sw, requests } = client([json(201, link)])
    await sw.links.create({ monto: 10, concepto: "Prueba" })
    const [{ url, init }] = requests as [{ url: string; init: RequestInit }]
    expect(url).toBe("http://api.test/switch/v1/links")
    expect(init.method).toBe("POST")
    expect((init.headers as Record<string, string>)["x-switch-key"]).toBe("demo:sk_test_abc")
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json")
  })

  it("keeps one generated idempotency key across retries of a create", async () => {
    const { sw, requests } = client([new TypeError("fetch failed"), json(502, {}), json(201, link)])
    await sw.links.create({ monto: 10, concepto: "Prueba" })
    const keys = requests.map((r) => bodyOf(r.init).idempotency_key)
    expect(keys).toHaveLength(3)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(keys).size).toBe(1)
  })

  it("uses the caller's idempotency key from the options, else from the params", async () => {
    const { sw, requests } = client([json(201, link), json(201, link)])
    await sw.links.create({ monto: 10, concepto: "a", idempotency_key: "de-params" })
    await sw.lotes.create({ items: [{ monto: 1, concepto: "x" }] }, { idempotencyKey: "de-opciones" })
    expect(requests.map((r) => bodyOf(r.init).idempotency_key)).toEqual(["de-params", "de-opciones"])
  })

  it("puts the direct API's UUID in the body and hands it back from the token step", async () => {
    const resultado = {
      id: "op1",
      estado: "ACEPTADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
    const { sw, requests } = client([json(200, resultado)])
    const instrument = {
      tipo: "telefono" as const,
      valor: "04141234567",
      banco: "0102",
      identificacion: "V1",
      nombre: "A"
    }
    const token = await sw.cobros.solicitarToken({
      monto: { valor: 10 },
      concepto: "c",
      cobrador: instrument,
      pagador: instrument
    })
    expect(token.idempotency_key).toBe(bodyOf(requests[0]!.init).idempotency_key)
    expect(token.idempotency_key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    )
  })

  it("encodes list filters: arrays joined by commas, dates as ISO", async () => {
    const { sw, requests } = client([json(200, [])])
    await sw.links.list({
      estado: ["pagado", "expirado"],
      desde: new Date("2026-01-01T04:00:00Z"),
      con_propina: true
    })
    const url = new URL(requests[0]!.url)
    expect(url.searchParams.get("estado")).toBe("pagado,expirado")
    expect(url.searchParams.get("desde")).toBe("2026-01-01T04:00:00.000Z")
    expect(url.searchParams.get("con_propina")).toBe("true")
    expect(url.searchParams.get("limit")).toBe("50")
    expect(url.searchParams.get("offset")).toBe("0")
  })

  it("honours Retry-After on 429 and then succeeds", async () => {
    const { sw, requests } = client([
      json(429, { error: "demasiadas_solicitudes" }, { "retry-after": "1" }),
      json(200, link)
    ])
    const started = Date.now()
    expect((await sw.links.get("l1")).id).toBe("l1")
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(requests).toHaveLength(2)
  })

  it("gives up with the last error after maxRetries, counting attempts", async () => {
    const { sw, requests } = client([
      json(429, {}),
      json(429, {}),
      json(429, { error: "demasiadas_solicitudes" })
    ])
    const error = await sw.links.get("l1").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).attempts).toBe(3)
    expect(requests).toHaveLength(3)
  })

  it("does not resend a non-idempotent request after a network failure", async () => {
    const { sw, requests } = client([new TypeError("fetch failed"), json(200, {})])
    await expect(sw.links.simulate("l1", "pagado")).rejects.toBeInstanceOf(ConnectionError)
    expect(requests).toHaveLength(1)
  })

  it("does not retry a validation error", async () => {
    const { sw, requests } = client([
      json(400, { error: "validation", detail: { fieldErrors: { monto: ["x"] } } })
    ])
    await expect(sw.links.create({ monto: 0, concepto: "" })).rejects.toBeInstanceOf(ValidationError)
    expect(requests).toHaveLength(1)
  })

  it("times out each attempt (per-call override) and retries, then reports a TimeoutError", async () => {
    const { sw, requests } = client(["hang", "hang"], { maxRetries: 1 })
    const error = await sw.links.get("l1", { timeout: 50 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(requests).toHaveLength(2)
  })

  it("stops at once when the caller aborts, with the signal's reason", async () => {
    const { sw, requests } = client(["hang", "hang"])
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error("el usuario se fue")), 30)
    await expect(sw.links.get("l1", { signal: controller.signal })).rejects.toThrow("el usuario se fue")
    expect(requests).toHaveLength(1)
  })

  it("treats a repeated cancel that finds the link cancelled by the lost first attempt as success", async () => {
    const { sw } = client([
      new TypeError("fetch failed"),
      json(409, { error: "no_cancelable", estado: "cancelado" })
    ])
    expect(await sw.links.cancel("l1")).toEqual({ id: "l1", estado: "cancelado" })
  })

  it("answers an unknown receipt code with valido false instead of throwing, and sends no key", async () => {
    const body = { error: "no_encontrado", valido: false, estado: "no_encontrado", mensaje: "No existe" }
    const { sw, requests } = client([json(404, body)])
    expect(await sw.recibos.verificar("SW-AAAAA-BBBBB")).toEqual(body)
    expect((requests[0]!.init.headers as Record<string, string>)["x-switch-key"]).toBeUndefined()
  })

  it("refuses a malformed key before any request, and never shows the key when inspected", async () => {
    expect(() => new Switch({ key: "sk_test_sin_comercio" })).toThrow(TypeError)
    const sw = new Switch({ key: "demo:sk_live_secreto" })
    expect(sw.mode).toBe("live")
    const { inspect } = await import("node:util")
    expect(inspect(sw, { depth: 5 })).not.toContain("secreto")
    expect(JSON.stringify(sw)).not.toContain("secreto")
  })
})
