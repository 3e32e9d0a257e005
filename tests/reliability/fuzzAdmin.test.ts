/**
 * Fuzz of the admin API from /admin/v1/openapi.json: malformed bodies, wrong content types and
 * odd path values against every documented route, with the admin token and with `riesgo` and
 * `tesoreria` operator sessions. No answer may be a 5xx and every 4xx must be SPEC's error shape.
 * The operators' routes allow 300 requests a minute per address, so the sample stays under it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"

let stack: Stack
const PASSWORD = "clave-de-operador-fuzz"

beforeAll(async () => {
  stack = await startStack({ SWITCH_REGISTROS_POR_HORA: "1000000" })
})
afterAll(() => stack?.stop())

const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const VALUES: ReadonlyArray<unknown> = [
  "",
  "x".repeat(10_000),
  "ñandú 💸 \u0000 \u202e",
  "'; drop table auditoria; --",
  -1,
  1e308,
  10.001,
  null,
  true,
  [],
  {},
  { a: { b: { c: 1 } } }
]
const FIELDS = [
  "nota",
  "referencia_banco",
  "cuenta_liquidacion",
  "email",
  "password",
  "rol",
  "codigo",
  "estado"
]

const bodies = (pick: () => number): Array<{ body: string; type: string }> => {
  const json = (v: unknown) => ({ body: JSON.stringify(v), type: "application/json" })
  const out = [
    { body: "{", type: "application/json" },
    { body: '{"nota": NaN}', type: "application/json" },
    { body: "nota=x", type: "application/x-www-form-urlencoded" },
    json(null),
    json([]),
    json("texto"),
    json({ propiedad_extra: 1 })
  ]
  for (const field of FIELDS) for (const value of VALUES) if (pick() < 0.3) out.push(json({ [field]: value }))
  return out
}

const operator = async (rol: string) => {
  const email = `fuzz-${rol}-${Date.now().toString(36)}@switch.example`
  const made = await call(stack.url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { email, password: PASSWORD, rol }
  })
  const signed = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
    body: { email, password: PASSWORD, codigo: totpCode(made.body.totp_secret, totpStep(Date.now())) }
  })
  expect(signed.status).toBe(200)
  return {
    cookie: (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? "",
    "x-csrf-token": signed.body.csrf_token as string
  }
}

describe("fuzzing the admin API", () => {
  it("answers malformed requests to every documented admin route without a 5xx, in SPEC's error shape", async () => {
    const spec = (await call(stack.url, "GET", "/admin/v1/openapi.json")).body
    const codigo = `fz${Date.now().toString(36)}`
    await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: { codigo, nombre: "Fuzz", identificacion: "J-07013380-5", email: `${codigo}@example.com` }
    })
    const credentials: Record<string, Record<string, string>> = {
      token: { "x-admin-token": ADMIN_TOKEN },
      riesgo: await operator("riesgo"),
      tesoreria: await operator("tesoreria")
    }
    const pick = rng(20261125)
    const failures: Array<string> = []
    const requests: Array<{
      method: string
      path: string
      headers: Record<string, string>
      body?: { body: string; type: string }
    }> = []
    for (const [path, methods] of Object.entries(spec.paths as Record<string, Record<string, unknown>>))
      for (const method of Object.keys(methods)) {
        // Signing out would end the fuzzing sessions.
        if (path === "/admin/v1/operador/sesion" && method !== "post") continue
        for (const value of [codigo, "NO EXISTE", "a".repeat(300), "%00", "..%2f..%2fetc"])
          for (const id of ["00000000-0000-0000-0000-000000000000", "no-es-uuid"]) {
            const concrete = path
              .replace("{codigo}", encodeURIComponent(value))
              .replace("{id}", id)
              .replace("{link_id}", id)
              .replace("{indice}", encodeURIComponent(value.slice(0, 3)))
            const creds = Object.values(credentials)
            const headers = creds[Math.floor(pick() * creds.length)] ?? {}
            if (method === "get") requests.push({ method: "GET", path: concrete, headers })
            else
              for (const body of bodies(pick))
                if (pick() < 0.08)
                  requests.push({ method: method.toUpperCase(), path: concrete, headers, body })
          }
      }
    // Under the per-address limits (300 a minute on each of the two route families).
    const sample = requests.filter(() => pick() < 0.5).slice(0, 280)
    expect(sample.length).toBeGreaterThan(150)
    for (const r of sample) {
      const response = await fetch(`${stack.url}${r.path}`, {
        method: r.method,
        headers: { ...r.headers, ...(r.body ? { "content-type": r.body.type } : {}) },
        ...(r.body ? { body: r.body.body } : {})
      })
      const text = await response.text()
      const where = `${r.method} ${r.path.slice(0, 90)} ${r.body?.body.slice(0, 60) ?? ""}`
      if (response.status >= 500) failures.push(`${where} -> ${response.status}`)
      if (response.status >= 400 && response.status < 500) {
        let parsed: any
        try {
          parsed = JSON.parse(text)
        } catch {}
        if (typeof parsed?.error !== "string")
          failures.push(`${where} -> ${response.status} not SPEC shape: ${text.slice(0, 80)}`)
      }
    }
    expect(failures).toEqual([])
    // The audit log survived: it still reads, and the merchant is still waiting for KYC or was acted on by a valid request only.
    const audit = await call(stack.url, "GET", "/admin/v1/operador/auditoria?limit=5", {
      headers: credentials.riesgo ?? {}
    })
    expect(audit.status).toBe(200)
  }, 300_000)
})
