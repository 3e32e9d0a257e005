import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const register = (body: unknown, base = server.url) =>
  call(base, "POST", "/switch/v1/comercios/registrar", { body })

const signup = (codigo: string) => ({
  codigo,
  nombre: "Panadería La Esquina",
  identificacion: "J-07013380-5",
  email: "ventas@esquina.example"
})

let counter = 0
const freshCodigo = () => `m${Date.now().toString(36)}${counter++}`

describe("POST /switch/v1/comercios/registrar", () => {
  it("creates a pendiente merchant with one test key, shown once, that works as codigo:api_key", async () => {
    const codigo = freshCodigo()
    const reply = await register(signup(codigo))
    expect(reply.status).toBe(201)
    expect(Object.keys(reply.body).sort()).toEqual([
      "api_key",
      "codigo",
      "estado",
      "kyc_tier",
      "mode",
      "nombre"
    ])
    expect(reply.body).toMatchObject({
      codigo,
      nombre: "Panadería La Esquina",
      estado: "pendiente",
      kyc_tier: 0,
      mode: "test"
    })
    expect(reply.body.api_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/)
    const key = `${codigo}:${reply.body.api_key}`
    const links = await call(server.url, "GET", "/switch/v1/links", { key })
    expect(links.status).toBe(200)
    expect(links.body).toEqual([])
    const keys = await call(server.url, "GET", "/switch/v1/llaves", { key })
    expect(keys.body).toHaveLength(1)
    expect(JSON.stringify(keys.body)).not.toContain(reply.body.api_key)
  })

  it("refuses a bad codigo, a bad email or an unknown field with 400 validation", async () => {
    const cases: Array<[unknown, string]> = [
      [signup("Mayusculas"), "codigo"],
      [signup("ab"), "codigo"],
      [signup("a".repeat(33)), "codigo"],
      [signup("con espacio"), "codigo"],
      [{ ...signup(freshCodigo()), email: "no-es-correo" }, "email"],
      [{ ...signup(freshCodigo()), email: "a@b" }, "email"],
      [{ ...signup(freshCodigo()), mode: "live" }, "mode"],
      [{ ...signup(freshCodigo()), tipo: "ong" }, "tipo"],
      [{ codigo: freshCodigo() }, "nombre"]
    ]
    for (const [body, field] of cases) {
      const reply = await register(body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(Object.keys(reply.body.detail.fieldErrors), JSON.stringify(body)).toContain(field)
    }
    // 3 and 32 characters are the bounds, both accepted.
    expect((await register(signup(`a${freshCodigo()}`.slice(0, 3)))).status).toBe(201)
    expect((await register(signup(freshCodigo().padEnd(32, "x")))).status).toBe(201)
  })

  it("registration checks identificacion: V/E cédula digits, a J/G/P RIF with its check digit; email too", async () => {
    for (const identificacion of [
      "J-07013380-4",
      "J-0701338",
      "G-2000000-1",
      "P-AB123456",
      "12345678",
      "V-12A45",
      "hola",
      "X-12345678"
    ]) {
      const reply = await register({ ...signup(freshCodigo()), identificacion })
      expect(reply.status, identificacion).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(Object.keys(reply.body.detail.fieldErrors), identificacion).toEqual(["identificacion"])
    }
    for (const email of [
      "a@b.c",
      "a..b@tienda.ve",
      "ventas@tienda..ve",
      "ventas@-tienda.ve",
      "ventas @tienda.ve"
    ]) {
      const reply = await register({ ...signup(freshCodigo()), email })
      expect(reply.status, email).toBe(400)
      expect(Object.keys(reply.body.detail.fieldErrors), email).toEqual(["email"])
    }
    for (const [identificacion, tipo_doc] of [
      ["V-12.345.678", undefined],
      ["12345678", "E"],
      ["J070133805", undefined],
      ["G-20000015-5", undefined]
    ] as const) {
      const reply = await register({
        ...signup(freshCodigo()),
        identificacion,
        ...(tipo_doc ? { tipo_doc } : {})
      })
      expect(reply.status, identificacion).toBe(201)
    }
  })

  it("answers 409 for a codigo already taken and keeps the first merchant's key", async () => {
    const codigo = freshCodigo()
    const first = await register(signup(codigo))
    expect(first.status).toBe(201)
    const again = await register({ ...signup(codigo), nombre: "Otro" })
    expect(again.status).toBe(409)
    expect(again.body.api_key).toBeUndefined()
    const key = `${codigo}:${first.body.api_key}`
    expect((await call(server.url, "GET", "/switch/v1/config", { key })).body.nombre).toBe(
      "Panadería La Esquina"
    )
  })

  it("limits sign-ups per IP and answers 429 with Retry-After", async () => {
    const limited = await startServer({ settings: { registrosPorHora: 3 } })
    try {
      for (let i = 0; i < 3; i++)
        expect((await register(signup(freshCodigo()), limited.url)).status).toBe(201)
      const codigo = freshCodigo()
      const refused = await register(signup(codigo), limited.url)
      expect(refused.status).toBe(429)
      const retryAfter = Number(refused.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(3600)
      // Nothing was created: the code is still free once the window allows.
      const admin = await call(limited.url, "GET", `/admin/v1/comercios/${codigo}`, {
        headers: { "x-admin-token": "admin-de-prueba" }
      })
      expect(admin.status).toBe(404)
    } finally {
      await limited.close()
    }
  })
})

describe("keys (/switch/v1/llaves)", () => {
  it("lists only the key's own mode, without hashes or full keys", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const live = await approveMerchant(server, codigo)
    const testList = await call(server.url, "GET", "/switch/v1/llaves", { key })
    expect(testList.status).toBe(200)
    expect(testList.body.map((k: { mode: string }) => k.mode)).toEqual(["test"])
    const liveList = await call(server.url, "GET", "/switch/v1/llaves", { key: live })
    expect(liveList.body.map((k: { mode: string }) => k.mode)).toEqual(["live"])
    for (const item of [...testList.body, ...liveList.body]) {
      expect(Object.keys(item).sort()).toEqual([
        "created_at",
        "expira_at",
        "id",
        "label",
        "mode",
        "revoked_at",
        "ultimos4"
      ])
    }
    const text = JSON.stringify([testList.body, liveList.body])
    expect(text).not.toContain(key.split(":")[1])
    expect(text).not.toContain(live.split(":")[1])
    expect(text).not.toContain("hash")
    expect(testList.body[0].ultimos4).toBe(key.slice(-4))
  })

  it("a test key creates a working test key, shown once", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const reply = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label: "tienda web" } })
    expect(reply.status).toBe(201)
    expect(Object.keys(reply.body).sort()).toEqual(["api_key", "id", "label", "mode"])
    expect(reply.body).toMatchObject({ label: "tienda web", mode: "test" })
    expect(reply.body.api_key).toMatch(/^sk_test_/)
    const created = `${codigo}:${reply.body.api_key}`
    expect((await call(server.url, "GET", "/switch/v1/links", { key: created })).status).toBe(200)
    const list = await call(server.url, "GET", "/switch/v1/llaves", { key })
    expect(list.body).toHaveLength(2)
    expect(JSON.stringify(list.body)).not.toContain(reply.body.api_key)
  })

  it("a test key may not create a live key (403 requiere_llave_live); a live key may", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const refused = await call(server.url, "POST", "/switch/v1/llaves", {
      key,
      body: { label: "prod", mode: "live" }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("requiere_llave_live")

    const live = await approveMerchant(server, codigo)
    for (const body of [{ label: "prod", mode: "live" }, { label: "prod 2" }]) {
      const reply = await call(server.url, "POST", "/switch/v1/llaves", { key: live, body })
      expect(reply.status).toBe(201)
      expect(reply.body.mode).toBe("live")
      expect(reply.body.api_key).toMatch(/^sk_live_/)
      const config = await call(server.url, "GET", "/switch/v1/config", {
        key: `${codigo}:${reply.body.api_key}`
      })
      expect(config.body.mode).toBe("live")
    }
    // A live key may also create test keys.
    const test = await call(server.url, "POST", "/switch/v1/llaves", {
      key: live,
      body: { label: "pruebas", mode: "test" }
    })
    expect(test.status).toBe(201)
    expect(test.body.api_key).toMatch(/^sk_test_/)
  })

  it("refuses reserved labels with 400 label_reservado", async () => {
    const { key } = await registerMerchant(server.url)
    for (const label of [
      "service-key:interno",
      "partner:banco",
      "Partner:mayusculas",
      " partner:espacio",
      "\u200bservice-key:invisible",
      "ｐａｒｔｎｅｒ：ancho"
    ]) {
      const reply = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label } })
      expect(reply.status, label).toBe(400)
      expect(reply.body.error).toBe("label_reservado")
    }
    const bad = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label: "x", extra: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe("validation")
  })

  it("a key label of only spaces or invisible marks is 400 validation and makes no key", async () => {
    const { key } = await registerMerchant(server.url)
    const before = (await call(server.url, "GET", "/switch/v1/llaves", { key })).body.length
    for (const label of ["   ", "\t \u200b", ""]) {
      const reply = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label } })
      expect(reply.status, JSON.stringify(label)).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(Object.keys(reply.body.detail.fieldErrors)).toEqual(["label"])
    }
    expect((await call(server.url, "GET", "/switch/v1/llaves", { key })).body).toHaveLength(before)
  })

  it("a revoked key answers 401 from then on", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const created = await call(server.url, "POST", "/switch/v1/llaves", { key, body: { label: "temporal" } })
    const other = `${codigo}:${created.body.api_key}`
    expect((await call(server.url, "GET", "/switch/v1/links", { key: other })).status).toBe(200)
    const revoked = await call(server.url, "POST", `/switch/v1/llaves/${created.body.id}/revocar`, { key })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toMatchObject({ id: created.body.id, revocada: true })
    const after = await call(server.url, "GET", "/switch/v1/links", { key: other })
    expect(after.status).toBe(401)
    expect(after.body.error).toBe("unauthorized")
    const list = await call(server.url, "GET", "/switch/v1/llaves", { key })
    const item = list.body.find((k: { id: string }) => k.id === created.body.id)
    expect(typeof item.revoked_at).toBe("string")
  })

  it("a test key may not revoke a live key (403), and another merchant's key id is 404", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const live = await approveMerchant(server, codigo)
    const liveKeys = await call(server.url, "GET", "/switch/v1/llaves", { key: live })
    const liveId = liveKeys.body[0].id
    const refused = await call(server.url, "POST", `/switch/v1/llaves/${liveId}/revocar`, { key })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("requiere_llave_live")
    expect((await call(server.url, "GET", "/switch/v1/links", { key: live })).status).toBe(200)

    const stranger = await registerMerchant(server.url)
    const theirs = await call(server.url, "GET", "/switch/v1/llaves", { key: stranger.key })
    for (const id of [theirs.body[0].id, "00000000-0000-0000-0000-000000000000", "no-es-uuid"]) {
      const reply = await call(server.url, "POST", `/switch/v1/llaves/${id}/revocar`, { key: live })
      expect(reply.status, id).toBe(404)
      expect(reply.body.error).toBe("not_found")
    }
    expect((await call(server.url, "GET", "/switch/v1/links", { key: stranger.key })).status).toBe(200)
  })
})

describe("GET /switch/v1/config", () => {
  it("shows the default 1 % commission, kyc_tier, estado and mode, and no raw account, limits or rails", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    // Even with an account and limits set, the merchant's view does not expose them.
    const patched = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": "admin-de-prueba" },
      body: { tope_diario: { monto: 300, moneda: "USD" }, monto_max: { monto: 1000, moneda: "VES" } }
    })
    expect(patched.status).toBe(200)
    const reply = await call(server.url, "GET", "/switch/v1/config", { key })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ comision_pct: 1, kyc_tier: 0, estado: "pendiente", mode: "test" })
    const text = JSON.stringify(reply.body)
    for (const hidden of ["cuenta_liquidacion", "tope", "rieles", "monto_max", "cuentas_aprobadas"]) {
      expect(text).not.toContain(hidden)
    }
  })

  it("reads an agreed commission set by the administrator", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers: { "x-admin-token": "admin-de-prueba" },
      body: { comision_pct: 2.5 }
    })
    const reply = await call(server.url, "GET", "/switch/v1/config", { key })
    expect(reply.body.comision_pct).toBe(2.5)
  })

  it("PUT /config is always 403, and 401 without a key", async () => {
    const { key } = await registerMerchant(server.url)
    const reply = await call(server.url, "PUT", "/switch/v1/config", { key, body: { comision_pct: 0 } })
    expect(reply.status).toBe(403)
    expect((await call(server.url, "GET", "/switch/v1/config", { key })).body.comision_pct).toBe(1)
    expect((await call(server.url, "GET", "/switch/v1/config")).status).toBe(401)
  })
})

describe("internal-use routes", () => {
  it("answer a merchant key 403 with SPEC's codes, and 401 without a key", async () => {
    const { key } = await registerMerchant(server.url)
    const routes: Array<[string, string, string | undefined]> = [
      ["GET", "/switch/v1/bancos", "solo_uso_interno"],
      ["GET", "/switch/v1/politica-dinero", "solo_uso_interno"],
      ["GET", "/switch/v1/saldo", "cuenta_no_permitida"],
      ["GET", "/switch/v1/movimientos", "cuenta_no_permitida"],
      ["POST", "/switch/v1/conciliar", undefined],
      ["POST", "/switch/v1/conciliar/saliente", undefined],
      ["POST", "/switch/v1/conciliar/multiple", undefined]
    ]
    for (const [method, path, code] of routes) {
      const reply = await call(server.url, method, path, { key, ...(method === "POST" ? { body: {} } : {}) })
      expect(reply.status, path).toBe(403)
      if (code !== undefined) expect(reply.body.error, path).toBe(code)
      const anonymous = await call(server.url, method, path)
      expect(anonymous.status, path).toBe(401)
      expect(anonymous.body.error).toBe("unauthorized")
    }
  })

  it("are not in /openapi.json", async () => {
    const paths = Object.keys((await call(server.url, "GET", "/openapi.json")).body.paths)
    for (const internal of ["/switch/v1/bancos", "/switch/v1/saldo", "/switch/v1/conciliar"]) {
      expect(paths).not.toContain(internal)
    }
  })
})

describe("API request limit", () => {
  it("the request past the per-minute limit answers 429 for that merchant only; bad keys count per IP", async () => {
    const limited = await startServer({ settings: { apiPorMinuto: 5 } })
    try {
      const a = await registerMerchant(limited.url)
      const b = await registerMerchant(limited.url)
      const c = await registerMerchant(limited.url)
      // Fixed one-minute windows: start well inside one so all requests fall in it.
      const second = new Date().getUTCSeconds()
      if (second > 50) await new Promise((done) => setTimeout(done, (61 - second) * 1000))

      const statuses: Array<number> = []
      for (let i = 0; i < 6; i++) {
        statuses.push((await call(limited.url, "GET", "/switch/v1/links", { key: a.key })).status)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
      const refused = await call(limited.url, "GET", "/switch/v1/links", { key: a.key })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((await call(limited.url, "GET", "/switch/v1/links", { key: b.key })).status).toBe(200)

      // Requests with a wrong key naming merchant c are counted against the IP, not against c.
      const wrong = `${c.codigo}:sk_test_${"x".repeat(32)}`
      const invalid: Array<number> = []
      for (let i = 0; i < 6; i++) {
        invalid.push((await call(limited.url, "GET", "/switch/v1/links", { key: wrong })).status)
      }
      expect(invalid).toEqual([401, 401, 401, 401, 401, 429])
      expect((await call(limited.url, "GET", "/switch/v1/links", { key: c.key })).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
