/**
 * Fuzz: thousands of malformed requests generated from /openapi.json against every route:
 * wrong types, extra properties, huge and unicode strings, negative, huge and 3-decimal
 * amounts, broken JSON, wrong content types, odd path ids. No answer may be a 5xx, every 4xx
 * must be SPEC's error shape, and nothing the server refused may change state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let linkId: string

beforeAll(async () => {
  stack = await startStack({
    SWITCH_API_POR_MINUTO: "1000000",
    SWITCH_VERIFICAR_POR_MINUTO: "1000000",
    SWITCH_REGISTROS_POR_HORA: "1000000"
  })
  linkId = (
    await call(stack.url, "POST", "/switch/v1/links", {
      key: stack.demoKey,
      body: { monto: 1, concepto: "x" }
    })
  ).body.id
})
afterAll(() => stack?.stop())

/** A deterministic pseudo-random source, so a failure can be replayed. */
const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const STRINGS = [
  "",
  " ",
  "x".repeat(10_000),
  "ñandú 💸 \u0000 \u202e",
  "<script>alert(1)</script>",
  "'; drop table links; --",
  "../../etc/passwd",
  "SW-00000-00000",
  "00000000-0000-0000-0000-000000000000",
  "%00",
  "\\u0000"
]
const NUMBERS = [-1, 0, 10.001, 1e308, -1e308, 1e-7, 0.1 + 0.2, 2 ** 53 + 1, 123456789012345.67]
const ODD = [null, true, false, [], {}, [1, 2], { a: { b: { c: 1 } } }]

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** A plausible value for a JSON schema, to mutate one field at a time. */
const sample = (schema: any, spec: any, depth = 0): Json => {
  if (schema === undefined || depth > 4) return "x"
  if (schema.$ref) return sample(spec.components.schemas[schema.$ref.split("/").pop()], spec, depth + 1)
  if (schema.enum) return schema.enum[0]
  if (schema.const !== undefined) return schema.const
  for (const key of ["anyOf", "oneOf", "allOf"])
    if (schema[key]) return sample(schema[key][0], spec, depth + 1)
  switch (schema.type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v, spec, depth + 1)])
      )
    case "array":
      return [sample(schema.items, spec, depth + 1)]
    case "number":
    case "integer":
      return 10
    case "boolean":
      return true
    default:
      return "texto"
  }
}

const mutations = (base: Json, pick: () => number): Array<{ body: string; type: string }> => {
  const out: Array<{ body: string; type: string }> = []
  const json = (v: unknown) => ({ body: JSON.stringify(v), type: "application/json" })
  out.push({ body: "{", type: "application/json" })
  out.push({ body: '{"monto": NaN}', type: "application/json" })
  out.push({ body: JSON.stringify(base), type: "text/plain" })
  out.push({ body: "monto=1&concepto=x", type: "application/x-www-form-urlencoded" })
  out.push(json(null), json([]), json("texto"), json(42))
  if (base !== null && typeof base === "object" && !Array.isArray(base)) {
    out.push(json({ ...base, propiedad_extra: 1 }), json({ ...base, mode: "live" }))
    for (const field of Object.keys(base)) {
      const { [field]: _, ...without } = base as Record<string, Json>
      out.push(json(without))
      for (const value of [...STRINGS, ...NUMBERS, ...ODD]) {
        if (pick() < 0.5) out.push(json({ ...base, [field]: value }))
      }
    }
  }
  return out
}

describe("fuzzing every route from the OpenAPI document", () => {
  it("answers at least 5,000 malformed requests without a 5xx, in SPEC's error shape, changing nothing", async () => {
    const spec = (await call(stack.url, "GET", "/openapi.json")).body
    const pick = rng(20261120)
    const key = stack.demoKey
    const countLinks = async () =>
      (await call(stack.url, "GET", "/switch/v1/links?limit=200", { key })).body.length as number
    const linksBefore = await countLinks()
    let created = 0
    let sent = 0
    const failures: Array<string> = []

    const send = async (method: string, path: string, body?: { body: string; type: string }) => {
      const response = await fetch(`${stack.url}${path}`, {
        method,
        headers: { "x-switch-key": key, ...(body ? { "content-type": body.type } : {}) },
        ...(body ? { body: body.body } : {})
      })
      sent++
      // An event stream never ends by itself: its status is the answer.
      if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        await response.body?.cancel()
        return
      }
      const text = await response.text()
      const where = `${method} ${path.slice(0, 100)}`
      if (response.status >= 500) failures.push(`${where} ${response.status} ${body?.body.slice(0, 80)}`)
      if (response.status >= 400 && response.status < 500) {
        let parsed: any
        try {
          parsed = JSON.parse(text)
        } catch {}
        if (typeof parsed?.error !== "string") {
          failures.push(`${where} ${response.status} not SPEC shape: ${text.slice(0, 80)}`)
        }
      }
      if (method === "POST" && path === "/switch/v1/links" && response.status === 201) created++
    }

    const ids = [
      linkId,
      "no-es-uuid",
      "00000000-0000-0000-0000-000000000000",
      "%2e%2e",
      "x".repeat(3000),
      "ñ"
    ]
    while (sent < 5_000) {
      for (const [template, operations] of Object.entries<any>(spec.paths)) {
        for (const [method, op] of Object.entries<any>(operations)) {
          const m = method.toUpperCase()
          const id = ids[Math.floor(pick() * ids.length)] ?? linkId
          const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(id))
          const schema = op.requestBody?.content?.["application/json"]?.schema
          if (schema !== undefined) {
            for (const mutation of mutations(sample(schema, spec), pick)) await send(m, path, mutation)
          } else {
            const params = (op.parameters ?? []).filter((p: any) => p.in === "query")
            await send(m, path)
            for (const param of params) {
              for (const value of [...STRINGS, "-5", "1e999", "NaN", "10.001", "true"]) {
                if (pick() < 0.6) await send(m, `${path}?${param.name}=${encodeURIComponent(value)}`)
              }
            }
          }
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([])
    expect(sent).toBeGreaterThanOrEqual(5_000)
    // Only the creations the server accepted exist; every refused request changed nothing.
    expect(await countLinks()).toBe(Math.min(200, linksBefore + created))
  }, 600_000)
})
