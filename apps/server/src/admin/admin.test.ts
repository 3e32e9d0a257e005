import { Venezuela } from "@switch/core"
import { Option } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage } from "../../test/checkoutHarness.js"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const TOKEN = "admin-de-prueba"
const admin = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
  call(server.url, method, path, {
    ...(body === undefined ? {} : { body }),
    ...(token === null ? {} : { headers: { "x-admin-token": token } })
  })
const patch = (codigo: string, body: unknown) => admin("PATCH", `/admin/v1/comercios/${codigo}`, body)

/** A 20-digit account of `bank` with valid check digits. */
const account = (bank: string, number: string, branch = "0194") =>
  `${bank}${branch}${Option.getOrThrow(Venezuela.accountCheckDigits(bank, branch, number))}${number}`

/** An Instrument for the merchant registered by the harness (RIF J-07013380-5). */
const ownAccount = (number = "1194079423") => ({
  tipo: "cuenta",
  valor: account("0105", number),
  banco: "0105",
  identificacion: "J-07013380-5",
  nombre: "Comercio"
})

const dbQuery = async (text: string, values: Array<unknown>) => {
  const client = new Pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows
  } finally {
    await client.end()
  }
}

describe("admin token", () => {
  it("every admin route answers 404 not_found when SWITCH_ADMIN_TOKEN is unset, even with a token", async () => {
    const closed = await startServer({ settings: { adminToken: Option.none() } })
    try {
      const { codigo } = await registerMerchant(closed.url)
      const routes: Array<[string, string, unknown]> = [
        ["POST", `/admin/v1/comercios/${codigo}/aprobar`, undefined],
        ["PATCH", `/admin/v1/comercios/${codigo}`, { estado: "suspendido" }],
        ["GET", `/admin/v1/comercios/${codigo}`, undefined],
        ["PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 40 }],
        ["POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, ownAccount()]
      ]
      for (const [method, path, body] of routes) {
        for (const headers of [{}, { "x-admin-token": TOKEN }, { "x-admin-token": "" }]) {
          const reply = await call(closed.url, method, path, {
            ...(body === undefined ? {} : { body }),
            headers
          })
          expect(reply.status).toBe(404)
          expect(reply.body).toEqual({ error: "not_found" })
        }
      }
      // Nothing changed behind the 404.
      const links = await call(closed.url, "POST", "/switch/v1/links", {
        key: (await registerMerchant(closed.url)).key,
        body: { monto: 1, concepto: "x" }
      })
      expect(links.status).toBe(201)
    } finally {
      await closed.close()
    }
  })

  it("a missing or wrong token answers 401 unauthorized and changes nothing", async () => {
    const { codigo } = await registerMerchant(server.url)
    for (const token of [
      null,
      "",
      "admin-de-prueb",
      "admin-de-prueba2",
      "ADMIN-DE-PRUEBA",
      "x".repeat(500)
    ]) {
      const approve = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, undefined, token)
      expect(approve.status).toBe(401)
      expect(approve.body.error).toBe("unauthorized")
      expect(JSON.stringify(approve.body)).not.toContain(TOKEN)
      const suspend = await admin("PATCH", `/admin/v1/comercios/${codigo}`, { estado: "suspendido" }, token)
      expect(suspend.status).toBe(401)
      const rate = await admin("PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 1 }, token)
      expect(rate.status).toBe(401)
    }
    const view = await admin("GET", `/admin/v1/comercios/${codigo}`)
    expect(view.body).toMatchObject({ estado: "pendiente", kyc_tier: 0, revisado: false })
  })

  it("admin routes are not in /openapi.json", async () => {
    const reply = await call(server.url, "GET", "/openapi.json")
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body.paths).some((path) => path.startsWith("/admin"))).toBe(false)
    expect(JSON.stringify(reply.body)).not.toContain("x-admin-token")
  })
})

describe("POST /admin/v1/comercios/{codigo}/aprobar", () => {
  it("without the explicit ask it issues no key: the merchant is live, its owner creates the keys", async () => {
    const { codigo } = await registerMerchant(server.url)
    const liveKeys = async () =>
      (
        await dbQuery(
          "select count(*)::int as n from llaves l join comercios c on c.id = l.comercio_id where c.codigo = $1 and l.mode = 'live'",
          [codigo]
        )
      )[0].n
    for (const emitir_llave of ["si", 1, null]) {
      const bad = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, {
        cuenta_liquidacion: ownAccount(),
        emitir_llave
      })
      expect(bad.status, JSON.stringify(emitir_llave)).toBe(400)
      expect(Object.keys(bad.body.detail.fieldErrors)).toEqual(["emitir_llave"])
    }
    for (const body of [{ cuenta_liquidacion: ownAccount() }, { emitir_llave: false }]) {
      const reply = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, body)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(JSON.stringify(reply.body)).not.toContain("sk_live_")
      expect(reply.body.api_key).toBeUndefined()
    }
    expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body).toMatchObject({
      estado: "activo",
      kyc_tier: 1
    })
    expect(await liveKeys()).toBe(0)
    // Asking once it is approved mints nothing either.
    const late = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, { emitir_llave: true })
    expect(late.body).toEqual({ codigo, estado: "activo", kyc_tier: 1, ya_aprobado: true })
    expect(await liveKeys()).toBe(0)
    // The audit row keeps the ask, never an answer.
    const [row] = await dbQuery(
      "select despues from auditoria where accion = 'comercio.aprobar' and objeto_id = $1 order by id desc limit 1",
      [codigo]
    )
    expect(row.despues).toEqual({ emitir_llave: true })
  })

  it("with emitir_llave: true it completes KYC, activates the merchant and returns a working live key once", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const reply = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      cuenta_liquidacion: ownAccount(),
      emitir_llave: true
    })
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body).sort()).toEqual(["api_key", "codigo", "estado", "kyc_tier"])
    expect(reply.body).toMatchObject({ codigo, estado: "activo", kyc_tier: 1 })
    expect(reply.body.api_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/)
    const live = `${codigo}:${reply.body.api_key}`

    const list = await call(server.url, "GET", "/switch/v1/links", { key: live })
    expect(list.status).toBe(200)
    const config = await call(server.url, "GET", "/switch/v1/config", { key: live })
    expect(config.body).toMatchObject({ mode: "live", estado: "activo", kyc_tier: 1 })
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: live,
      body: { monto: 10, concepto: "Live" }
    })
    expect(link.status).toBe(201)
    expect(link.body.mode).toBe("live")
    // The test key keeps working and does not see the live link.
    const testList = await call(server.url, "GET", "/switch/v1/links", { key })
    expect(testList.body.map((l: { id: string }) => l.id)).not.toContain(link.body.id)

    // Approval is not the review: the new-account caps stay until POST .../revisar.
    const view = await admin("GET", `/admin/v1/comercios/${codigo}`)
    expect(view.body).toMatchObject({ estado: "activo", kyc_tier: 1, revisado: false })
    expect(view.body.cuenta_liquidacion).toMatchObject({ valor: "01050194651194079423", banco: "0105" })
    // The key is stored only as a hash.
    const rows = await dbQuery("select hash, label from llaves where mode = 'live' and ultimos4 = $1", [
      reply.body.api_key.slice(-4)
    ])
    expect(rows.some((r) => r.label === "aprobacion" && r.hash !== reply.body.api_key)).toBe(true)
  })

  it("approving twice returns the same state and mints no second live key", async () => {
    const { codigo } = await registerMerchant(server.url)
    const first = await approveMerchant(server, codigo)
    const liveKeys = async () =>
      (
        await dbQuery(
          "select count(*)::int as n from llaves l join comercios c on c.id = l.comercio_id where c.codigo = $1 and l.mode = 'live'",
          [codigo]
        )
      )[0].n
    expect(await liveKeys()).toBe(1)
    for (const body of [undefined, { cuenta_liquidacion: ownAccount() }]) {
      const again = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, body)
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ codigo, estado: "activo", kyc_tier: 1, ya_aprobado: true })
    }
    expect(await liveKeys()).toBe(1)
    expect((await call(server.url, "GET", "/switch/v1/llaves", { key: first })).status).toBe(200)
  })

  it("approval for live mode requires a settlement account in the merchant's own name", async () => {
    const { codigo } = await registerMerchant(server.url)
    const none = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`)
    expect(none.status).toBe(409)
    expect(none.body.error).toBe("cuenta_liquidacion_requerida")
    expect(typeof none.body.detail).toBe("string")
    const other = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      cuenta_liquidacion: { ...ownAccount(), identificacion: "V-12345678" }
    })
    expect(other.status).toBe(400)
    expect(Object.keys(other.body.detail.fieldErrors)).toEqual(["cuenta_liquidacion.identificacion"])
    const unknownField = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      cuenta: ownAccount()
    })
    expect(unknownField.status).toBe(400)
    // Nothing changed: still pending, no live key.
    const view = await admin("GET", `/admin/v1/comercios/${codigo}`)
    expect(view.body).toMatchObject({
      estado: "pendiente",
      kyc_tier: 0,
      cuenta_liquidacion: null,
      aprobado_at: null
    })
    // An account set beforehand (PATCH) is enough; once approved it can be replaced, never cleared.
    expect((await patch(codigo, { cuenta_liquidacion: ownAccount() })).status).toBe(200)
    const approved = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`, { emitir_llave: true })
    expect(approved.status).toBe(200)
    expect(approved.body.api_key).toMatch(/^sk_live_/)
    const cleared = await patch(codigo, { cuenta_liquidacion: null })
    expect(cleared.status).toBe(409)
    expect(cleared.body.error).toBe("cuenta_liquidacion_requerida")
    expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body.cuenta_liquidacion).not.toBeNull()
  })

  it("a merchant approved before it needed an account cannot take a live payment: nothing reaches the bank", async () => {
    const { codigo } = await registerMerchant(server.url)
    const live = await approveMerchant(server, codigo)
    // As an approval before this rule left it: live, with no settlement account on record.
    await dbQuery("update comercios set cuenta_liquidacion = null where codigo = $1", [codigo])
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key: live,
      body: { monto: 10, concepto: "x" }
    })
    const page = await openPage(server.url, link.body.id)
    const code = await page.post("/codigo", {
      banco: "0102",
      tipo_doc: "V",
      identificacion: "12345678",
      telefono: "04141234567"
    })
    expect(code.status).toBe(409)
    expect(code.body.error).toBe("comercio_sin_cuenta")
  })

  it("POST .../revisar marks the account reviewed (lifting the new-account caps), the same when repeated", async () => {
    const { codigo } = await registerMerchant(server.url)
    await approveMerchant(server, codigo, { reviewed: false })
    expect((await admin("GET", `/admin/v1/comercios/${codigo}`)).body.revisado).toBe(false)
    for (let i = 0; i < 2; i++) {
      const reply = await admin("POST", `/admin/v1/comercios/${codigo}/revisar`)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ codigo, estado: "activo", revisado: true })
    }
    expect((await admin("POST", "/admin/v1/comercios/no-existe/revisar")).status).toBe(404)
    expect((await admin("POST", `/admin/v1/comercios/${codigo}/revisar`, undefined, "malo")).status).toBe(401)
  })

  it("answers 404 for an unknown or malformed merchant code", async () => {
    for (const codigo of ["no-existe", "NoValido", "x"]) {
      const reply = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`)
      expect(reply.status).toBe(404)
      expect(reply.body.error).toBe("not_found")
    }
  })

  it("does not lift a suspension: a suspended merchant answers 409 comercio_suspendido", async () => {
    const { codigo } = await registerMerchant(server.url)
    await approveMerchant(server, codigo)
    expect((await patch(codigo, { estado: "suspendido" })).status).toBe(200)
    const reply = await admin("POST", `/admin/v1/comercios/${codigo}/aprobar`)
    expect(reply.status).toBe(409)
    expect(reply.body.error).toBe("comercio_suspendido")
    expect(reply.body.api_key).toBeUndefined()
  })
})

describe("PATCH /admin/v1/comercios/{codigo}", () => {
  it("sets percentages, flags and money limits, and answers the full admin view", async () => {
    const { codigo } = await registerMerchant(server.url)
    const reply = await patch(codigo, {
      comision_pct: 2.5,
      propina_max_pct: 15,
      liquidacion_inmediata: true,
      pagar_habilitado: true,
      split_habilitado: true,
      tarjeta_habilitada: true,
      monto_min: { monto: 10.5, moneda: "VES" },
      monto_max: { monto: 5000, moneda: "VES" },
      max_diario: { monto: 250.75, moneda: "USD" },
      tope_diario: { monto: 300, moneda: "USD" },
      tope_acumulado: { monto: 1000000.01, moneda: "VES" },
      cuenta_liquidacion: ownAccount()
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      codigo,
      nombre: `Comercio ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`,
      tipo: "empresa",
      estado: "pendiente",
      kyc_tier: 0,
      revisado: false,
      comision_pct: 2.5,
      comision_acordada: true,
      propina_max_pct: 15,
      liquidacion_inmediata: true,
      pagar_habilitado: true,
      split_habilitado: true,
      tarjeta_habilitada: true,
      monto_min: { monto: 10.5, moneda: "VES" },
      monto_max: { monto: 5000, moneda: "VES" },
      max_diario: { monto: 250.75, moneda: "USD" },
      tope_diario: { monto: 300, moneda: "USD" },
      tope_acumulado: { monto: 1000000.01, moneda: "VES" },
      cuenta_liquidacion: { ...ownAccount(), tipo_doc: "J" },
      cuentas_aprobadas: []
    })
    expect(typeof reply.body.created_at).toBe("string")

    // Stored as integer cents and basis points, the form the services read.
    const [row] = await dbQuery(
      "select comision_bp, propina_max_bp, monto_min, max_diario, tope_acumulado from comercios where codigo = $1",
      [codigo]
    )
    expect(row).toEqual({
      comision_bp: 250,
      propina_max_bp: 1500,
      monto_min: { cents: 1050, moneda: "VES" },
      max_diario: { cents: 25075, moneda: "USD" },
      tope_acumulado: { cents: 100000001, moneda: "VES" }
    })

    // Fields not sent keep their value; null clears a limit, an override or the account.
    const cleared = await patch(codigo, {
      monto_min: null,
      comision_pct: null,
      cuenta_liquidacion: null,
      pagar_habilitado: false
    })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({
      monto_min: null,
      monto_max: { monto: 5000, moneda: "VES" },
      comision_pct: 1,
      comision_acordada: false,
      cuenta_liquidacion: null,
      pagar_habilitado: false,
      split_habilitado: true,
      propina_max_pct: 15
    })
  })

  it("reads 0 and 100 percent, and the merchant's config shows the new commission", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    expect((await patch(codigo, { comision_pct: 0 })).body.comision_pct).toBe(0)
    expect((await patch(codigo, { propina_max_pct: 100 })).body.propina_max_pct).toBe(100)
    await patch(codigo, { comision_pct: 1.75 })
    const config = await call(server.url, "GET", "/switch/v1/config", { key })
    expect(config.body).toMatchObject({ comision_pct: 1.75, propina_max_pct: 100 })
  })

  it("refuses invalid values with 400 validation and fieldErrors, changing nothing", async () => {
    const { codigo } = await registerMerchant(server.url)
    const cases: Array<[unknown, Array<string>]> = [
      [{ desconocido: 1 }, ["desconocido"]],
      [{ estado: "pendiente" }, ["estado"]],
      [{ comision_pct: 100.01 }, ["comision_pct"]],
      [{ comision_pct: 1.234 }, ["comision_pct"]],
      [{ comision_pct: -1 }, ["comision_pct"]],
      [{ comision_pct: "2" }, ["comision_pct"]],
      [{ propina_max_pct: 101 }, ["propina_max_pct"]],
      [{ pagar_habilitado: "si" }, ["pagar_habilitado"]],
      [{ liquidacion_inmediata: null }, ["liquidacion_inmediata"]],
      [{ monto_max: { monto: 0, moneda: "VES" } }, ["monto_max.monto"]],
      [{ monto_max: { monto: 1.001, moneda: "VES" } }, ["monto_max.monto"]],
      [{ tope_diario: { monto: 10, moneda: "EUR" } }, ["tope_diario.moneda"]],
      [{ tope_diario: { monto: 10 } }, ["tope_diario.moneda"]],
      [{ tope_diario: { monto: 10, moneda: "VES", extra: true } }, ["tope_diario.extra"]],
      [{ monto_min: { monto: 100, moneda: "VES" }, monto_max: { monto: 50, moneda: "VES" } }, ["monto_min"]],
      [
        { cuenta_liquidacion: { ...ownAccount(), valor: "01050194651194079424" } },
        ["cuenta_liquidacion.valor"]
      ],
      [{ cuenta_liquidacion: { ...ownAccount(), banco: "0102" } }, ["cuenta_liquidacion.banco"]],
      [{ cuenta_liquidacion: { ...ownAccount(), alias: "x" } }, ["cuenta_liquidacion.alias"]],
      [
        { cuenta_liquidacion: { ...ownAccount(), identificacion: "V-12345678" } },
        ["cuenta_liquidacion.identificacion"]
      ],
      [{}, ["_"]]
    ]
    for (const [body, fields] of cases) {
      const reply = await patch(codigo, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(Object.keys(reply.body.detail.fieldErrors).sort(), JSON.stringify(body)).toEqual(fields)
    }
    const view = await admin("GET", `/admin/v1/comercios/${codigo}`)
    expect(view.body).toMatchObject({
      comision_pct: 1,
      monto_min: null,
      monto_max: null,
      cuenta_liquidacion: null
    })

    const malformed = await fetch(`${server.url}/admin/v1/comercios/${codigo}`, {
      method: "PATCH",
      headers: { "x-admin-token": TOKEN, "content-type": "application/json" },
      body: "{nope"
    })
    expect(malformed.status).toBe(400)
    expect(((await malformed.json()) as { error: string }).error).toBe("validation")
  })

  it("answers 404 for an unknown merchant", async () => {
    const reply = await patch("no-existe", { comision_pct: 2 })
    expect(reply.status).toBe(404)
    expect(reply.body.error).toBe("not_found")
  })

  it("suspension stops link creation at once and lifting it restores it", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const live = await approveMerchant(server, codigo)
    const create = (k: string) =>
      call(server.url, "POST", "/switch/v1/links", { key: k, body: { monto: 5, concepto: "Pedido" } })
    const open = await create(key)
    expect(open.status).toBe(201)

    const suspended = await patch(codigo, { estado: "suspendido" })
    expect(suspended.status).toBe(200)
    expect(suspended.body.estado).toBe("suspendido")
    for (const k of [key, live]) {
      const reply = await create(k)
      expect(reply.status).toBe(403)
      expect(reply.body.error).toBe("comercio_suspendido")
    }
    // Existing links are not changed by a suspension.
    const existing = await call(server.url, "GET", `/switch/v1/links/${open.body.id}`, { key })
    expect(existing.body.estado).toBe("pendiente")
    expect((await call(server.url, "GET", "/switch/v1/config", { key })).body.estado).toBe("suspendido")

    const restored = await patch(codigo, { estado: "activo" })
    expect(restored.status).toBe(200)
    expect(restored.body.estado).toBe("activo")
    for (const k of [key, live]) expect((await create(k)).status).toBe(201)
  })

  it("activo never skips approval: 409 for a pending merchant, and a suspended pending one goes back to pendiente", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const refused = await patch(codigo, { estado: "activo" })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("requiere_aprobacion")

    expect((await patch(codigo, { estado: "suspendido" })).body.estado).toBe("suspendido")
    const lifted = await patch(codigo, { estado: "activo" })
    expect(lifted.status).toBe(200)
    expect(lifted.body).toMatchObject({ estado: "pendiente", kyc_tier: 0 })
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 5, concepto: "Otra vez" }
    })
    expect(link.status).toBe(201)
  })
})

describe("PUT /admin/v1/tasa-bcv", () => {
  it("records the rate with up to 8 decimals and the latest one is current", async () => {
    const first = await admin("PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 36.5012 })
    expect(first.status).toBe(200)
    expect(first.body.ves_por_usd).toBe(36.5012)
    expect(Number.isNaN(Date.parse(first.body.actualizada_en))).toBe(false)

    const second = await admin("PUT", "/admin/v1/tasa-bcv", { ves_por_usd: 40.12345678 })
    expect(second.status).toBe(200)
    expect(second.body.ves_por_usd).toBe(40.12345678)
    const current = await admin("GET", "/admin/v1/tasa-bcv")
    expect(current.body).toEqual(second.body)

    const rows = await dbQuery("select ves_por_usd::text as v from tasas_bcv order by id", [])
    expect(rows.map((r) => r.v)).toEqual(["36.50120000", "40.12345678"])
  })

  it("refuses zero, negatives, more than 8 decimals, text and unknown fields", async () => {
    for (const body of [
      { ves_por_usd: 0 },
      { ves_por_usd: -1 },
      { ves_por_usd: 1.123456789 },
      { ves_por_usd: "mucho" },
      { ves_por_usd: 1e15 },
      {},
      { ves_por_usd: 40, fecha: "hoy" }
    ]) {
      const reply = await admin("PUT", "/admin/v1/tasa-bcv", body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(reply.body.detail.fieldErrors).toBeDefined()
    }
  })
})

describe("POST /admin/v1/comercios/{codigo}/cuentas-aprobadas", () => {
  const beneficiary = (n: number) => ({
    tipo: "cuenta",
    valor: account("0102", String(n).padStart(10, "0")),
    banco: "0102",
    identificacion: "V-12345678",
    nombre: "Beneficiario"
  })

  it("adds accounts once each, answers the list, and stops at 20 with 409 limite_cuentas", async () => {
    const { codigo } = await registerMerchant(server.url)
    const path = `/admin/v1/comercios/${codigo}/cuentas-aprobadas`
    const first = await admin("POST", path, beneficiary(1))
    expect(first.status).toBe(201)
    expect(first.body.cuentas_aprobadas).toEqual([{ ...beneficiary(1), tipo_doc: "V" }])

    // The same account written differently is not added twice.
    const acc = beneficiary(1).valor
    const again = await admin("POST", path, {
      ...beneficiary(1),
      valor: `${acc.slice(0, 4)}-${acc.slice(4, 8)}-${acc.slice(8, 10)}-${acc.slice(10)}`,
      identificacion: "V12345678"
    })
    expect(again.status).toBe(200)
    expect(again.body.cuentas_aprobadas).toHaveLength(1)

    const phone = await admin("POST", path, {
      tipo: "telefono",
      valor: "0414-123.45.67",
      banco: "0105",
      identificacion: "V-1234567",
      nombre: "Pago Movil"
    })
    expect(phone.status).toBe(201)
    expect(phone.body.cuentas_aprobadas[1]).toMatchObject({ valor: "04141234567", tipo_doc: "V" })

    for (let n = 2; n <= 19; n++) expect((await admin("POST", path, beneficiary(n))).status).toBe(201)
    const full = await admin("POST", path, beneficiary(20))
    expect(full.status).toBe(409)
    expect(full.body.error).toBe("limite_cuentas")
    expect(full.body.detail).toContain("20 cuentas aprobadas")
    // A repeat at the limit is still answered with the list, not refused.
    expect((await admin("POST", path, beneficiary(5))).status).toBe(200)
    const view = await admin("GET", `/admin/v1/comercios/${codigo}`)
    expect(view.body.cuentas_aprobadas).toHaveLength(20)
  })

  it("refuses an account known under another holder with the portal's 409 cuenta_otro_titular", async () => {
    const a = await registerMerchant(server.url)
    const b = await registerMerchant(server.url)
    const path = `/admin/v1/comercios/${a.codigo}/cuentas-aprobadas`
    // B's settlement account, in B's own name.
    const settlement = { ...beneficiary(30), identificacion: "J-07013380-5" }
    expect((await patch(b.codigo, { cuenta_liquidacion: settlement })).status).toBe(200)
    const other = await admin("POST", path, { ...beneficiary(30), identificacion: "V-12345678" })
    expect(other.status).toBe(409)
    expect(other.body.error).toBe("cuenta_otro_titular")
    expect(other.body.detail).toContain("otro titular")
    expect((await admin("POST", path, settlement)).status).toBe(201)
    // One already approved, given again under another holder.
    expect((await admin("POST", path, beneficiary(31))).status).toBe(201)
    const changed = await admin("POST", path, { ...beneficiary(31), identificacion: "V-87654321" })
    expect(changed.status).toBe(409)
    expect(changed.body.error).toBe("cuenta_otro_titular")
    expect((await admin("GET", `/admin/v1/comercios/${a.codigo}`)).body.cuentas_aprobadas).toHaveLength(2)
  })

  it("refuses invalid accounts and unknown merchants", async () => {
    const { codigo } = await registerMerchant(server.url)
    const path = `/admin/v1/comercios/${codigo}/cuentas-aprobadas`
    for (const [body, field] of [
      [{ ...beneficiary(1), valor: "01020194001234567890" }, "valor"],
      [{ ...beneficiary(1), extra: 1 }, "extra"],
      [{ ...beneficiary(1), tipo: "telefono", valor: "0212555" }, "valor"],
      [{ ...beneficiary(1), identificacion: "J-12345678-0" }, "identificacion"],
      [{ ...beneficiary(1), banco: "12" }, "banco"]
    ] as const) {
      const reply = await admin("POST", path, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(Object.keys(reply.body.detail.fieldErrors)).toContain(field)
    }
    expect(
      (await admin("POST", "/admin/v1/comercios/no-existe/cuentas-aprobadas", beneficiary(1))).status
    ).toBe(404)
  })

  it("an approved account can receive a split, another cannot", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    await patch(codigo, { split_habilitado: true, liquidacion_inmediata: true })
    await admin("POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, beneficiary(7))
    const create = (cuenta: unknown) =>
      call(server.url, "POST", "/switch/v1/links", {
        key,
        body: { monto: 100, concepto: "Con reparto", split: [{ cuenta, porcentaje: 10 }] }
      })
    const ok = await create(beneficiary(7))
    expect(ok.status, JSON.stringify(ok.body)).toBe(201)
    const refused = await create(beneficiary(8))
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe("split_cuenta_no_preaprobada")
  })
})
