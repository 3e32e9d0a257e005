/**
 * The endpoints' grants (Permisos in @switch/api) as the server applies them, for keys: walked
 * over the whole table, so a new endpoint is covered by its grant. A key on an endpoint no key
 * reaches is `401` before its body is read; a test key where only live keys go is `403
 * requiere_llave_live`, also before the body. Sessions, tokens and operators, with every spelling
 * of every path, are in tests/reliability/spellings.test.ts.
 */
import { Permisos, SwitchApi } from "@switch/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let testKey = ""
let liveKey = ""

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  const merchant = await registerMerchant(server.url)
  testKey = merchant.key
  liveKey = await approveMerchant(server, merchant.codigo)
})
afterAll(() => server?.close())

const filas = Permisos.tabla(SwitchApi).filter((fila) => fila.autenticado)
const concrete = (ruta: string) => ruta.replace(/:\w+/g, "00000000-0000-0000-0000-000000000000")
/** A body no endpoint accepts: what a refusal before validation must not even read. */
const GARBAGE = { basura: ["x".repeat(10)], rol: "propietario", monto: -1 }

describe("a key against every endpoint's grant", () => {
  it("on an endpoint no key reaches: 401 before the body is read, whatever the body", async () => {
    const portalOnly = filas.filter((fila) => fila.permiso.llave.length === 0)
    expect(portalOnly.length).toBeGreaterThan(15)
    for (const fila of portalOnly)
      for (const key of [testKey, liveKey]) {
        const reply = await call(server.url, fila.metodo, concrete(fila.ruta), {
          key,
          ...(fila.metodo === "GET" ? {} : { body: GARBAGE })
        })
        expect(reply.status, `${fila.metodo} ${fila.ruta}`).toBe(401)
        expect(reply.body.error).toBe("unauthorized")
      }
  })

  it("on a live-only endpoint a test key is 403 requiere_llave_live before the body is read", async () => {
    const liveOnly = filas.filter(
      (fila) => fila.permiso.llave.length === 1 && fila.permiso.llave[0] === "live"
    )
    expect(liveOnly.length).toBe(5)
    for (const fila of liveOnly) {
      const reply = await call(server.url, fila.metodo, concrete(fila.ruta), { key: testKey, body: GARBAGE })
      expect(reply.status, `${fila.metodo} ${fila.ruta}`).toBe(403)
      expect(reply.body.error).toBe("requiere_llave_live")
      // The live key passes the grant and meets the body's validation (or the missing object).
      const live = await call(server.url, fila.metodo, concrete(fila.ruta), { key: liveKey, body: GARBAGE })
      expect([400, 404], `${fila.metodo} ${fila.ruta}: ${JSON.stringify(live.body)}`).toContain(live.status)
    }
  })

  // fetch resolves `.` segments and sends origin-form; those spellings go out as written in the reliability suite.
  it("a wrong spelling of a route is 404 before routing: case, //, escapes, ;", async () => {
    for (const path of [
      "/switch/v1/LLAVES",
      "/SWITCH/V1/PAGAR",
      "/switch/v1//llaves",
      "/switch/v1/%6claves",
      "/switch/v1/llaves;x"
    ]) {
      const reply = await call(server.url, "POST", path, { key: liveKey, body: { label: "x" } })
      expect(reply.status, path).toBe(404)
      expect(reply.body.error).toBe("not_found")
    }
  })
})
