/**
 * Live links on the payment page, against a scripted LiveBank provided around the server (the
 * HTTP bank adapter is issue 6's) and a controlled clock: the live-only code limits, the bank
 * close, customers' consent, and /estado from real outcomes.
 */
import { BankCalendar } from "@switch/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ControlledClock,
  openPage,
  PAYER,
  scriptedBank,
  startCheckoutServer
} from "../../test/checkoutHarness.js"
import { approveMerchant, call, registerMerchant, type TestServer } from "../../test/harness.js"

const clock: ControlledClock = { offsetMs: 0, fixed: null }
const live = scriptedBank()
let server: TestServer
let liveKey: string
let testKey: string

/** A Caracas wall-clock time two days from now (links below live 30 days). */
const DAY = BankCalendar.caracasDayStart(Date.now() + 2 * 24 * 3600_000).getTime()
const caracas = (hour: number, minute: number) => new Date(DAY + (hour * 60 + minute) * 60_000)

beforeAll(async () => {
  server = await startCheckoutServer({ clock, liveBank: live.bank })
  const merchant = await registerMerchant(server.url)
  testKey = merchant.key
  liveKey = await approveMerchant(server, merchant.codigo)
})
afterAll(() => server.close())

const newLink = async (withKey: string, body: Record<string, unknown> = {}) => {
  const r = await call(server.url, "POST", "/switch/v1/links", {
    key: withKey,
    body: { monto: 50, concepto: "Pedido", expira_horas: 720, ...body }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

let phone = 1000000
const payer = () => ({ ...PAYER, telefono: `0414${String(phone++).padStart(7, "0")}` })

describe("live links on the page", () => {
  it("pays through the live bank port", async () => {
    clock.fixed = caracas(10, 0)
    const page = await openPage(server.url, await newLink(liveKey))
    expect(page.html).not.toContain("Modo de prueba")
    const before = live.state.calls.debit
    const reply = await page.post("/pagar", { ...payer(), otp: "87654321" })
    expect(reply.body).toMatchObject({ estado: "pagado", referencia: "LIVE0001" })
    expect(live.state.calls.debit).toBe(before + 1)
  })

  it("1 code request per minute for the same id and phone, then 429 with the wait", async () => {
    clock.fixed = caracas(11, 0)
    const page = await openPage(server.url, await newLink(liveKey))
    const p = payer()
    expect((await page.post("/codigo", p)).status).toBe(200)
    const again = await page.post("/codigo", { ...p, telefono: `+58 ${p.telefono.slice(1)}` })
    expect(again.status).toBe(429)
    expect(again.body.detail).toContain("Espera 1 minuto")
    expect(again.headers.get("retry-after")).toBe("60")
    clock.fixed = caracas(11, 1)
    expect((await page.post("/codigo", p)).status).toBe(200)
    clock.fixed = caracas(11, 2)
    expect((await page.post("/codigo", p)).status).toBe(200)
    clock.fixed = caracas(11, 3)
    const fourth = await page.post("/codigo", p)
    expect(fourth.status).toBe(429)
    expect(fourth.body.reintentar_en).toBe(7 * 60)
  })

  it("requests the bank rejects do not count", async () => {
    clock.fixed = caracas(12, 0)
    const page = await openPage(server.url, await newLink(liveKey))
    const p = payer()
    live.state.requestCode = {
      estado: "RECHAZADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: "BENEFICIARIO_NO_COINCIDE"
    }
    const refused = await page.post("/codigo", p)
    expect(refused.status).toBe(422)
    expect(refused.body.motivo).toContain("no coinciden")
    live.state.requestCode = {
      ...refused.body,
      estado: "ACEPTADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: null
    }
    expect((await page.post("/codigo", p)).status).toBe(200)
  })

  it("10 code requests per 10 minutes per IP", async () => {
    clock.fixed = caracas(13, 0)
    const links = [await newLink(liveKey), await newLink(liveKey), await newLink(liveKey)]
    const pages = await Promise.all(links.map((id) => openPage(server.url, id)))
    for (let i = 0; i < 10; i++) {
      const page = pages[Math.floor(i / 4)]!
      expect((await page.post("/codigo", payer())).status).toBe(200)
    }
    const eleventh = await pages[2]!.post("/codigo", payer())
    expect(eleventh.status).toBe(429)
  })

  it("the bank close answers 503 cierre_bancario with motivo, reintentar_en and Retry-After; test links are not affected", async () => {
    clock.fixed = caracas(23, 50)
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    expect(page.html).toContain('data-refrescar="30"')
    const closed = await page.post("/codigo", payer())
    expect(closed.status).toBe(503)
    expect(closed.body).toMatchObject({ error: "cierre_bancario", motivo: expect.stringContaining("01:30") })
    expect(closed.body.reintentar_en).toBe(100 * 60)
    expect(closed.headers.get("retry-after")).toBe(String(100 * 60))
    const test = await openPage(server.url, await newLink(testKey))
    expect((await test.post("/codigo", PAYER)).status).toBe(200)
    clock.fixed = caracas(1, 29)
    expect((await page.post("/codigo", payer())).status).toBe(503)
    clock.fixed = caracas(1, 30)
    expect((await page.post("/codigo", payer())).status).toBe(200)
  })

  it("from 23:30 the code request carries a warning; a payment already running finishes during the close", async () => {
    clock.fixed = caracas(23, 35)
    const page = await openPage(server.url, await newLink(liveKey))
    expect(page.html).toContain("23:45")
    const p = payer()
    const code = await page.post("/codigo", p)
    expect(code.status).toBe(200)
    expect(code.body.aviso).toContain("10 minutos")
    clock.fixed = caracas(23, 46)
    expect((await page.post("/pagar", { ...p, otp: "11112222" })).body.estado).toBe("pagado")
  })

  it("a live business customer accepts news", async () => {
    clock.fixed = caracas(15, 0)
    const page = await openPage(server.url, await newLink(liveKey))
    await page.post("/pagar", { ...payer(), otp: "11112222", alta_cliente: true, nombre: "Rosa" })
    const list = await call(server.url, "GET", "/switch/v1/clientes", { key: liveKey })
    expect(list.body).toEqual([expect.objectContaining({ acepta_novedades: true, prueba: false })])
    expect(JSON.stringify(list.body)).not.toContain("Rosa")
  })

  it("/estado.json and /estado report immediate debit from the recent live outcomes", async () => {
    clock.fixed = caracas(16, 0)
    let status = await call(server.url, "GET", "/estado.json")
    expect(status.body).toMatchObject({ estado: "sin_datos_recientes", incidentes: [] })
    clock.fixed = null
    const ok = await openPage(server.url, await newLink(liveKey))
    await ok.post("/pagar", { ...payer(), otp: "11112222" })
    status = await call(server.url, "GET", "/estado.json")
    expect(status.body.estado).toBe("operativo")
    live.state.debit = {
      estado: "RECHAZADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: "BANCO_NO_DISPONIBLE"
    }
    for (let i = 0; i < 2; i++) {
      const down = await openPage(server.url, await newLink(liveKey))
      await down.post("/pagar", { ...payer(), otp: "11112222" })
    }
    status = await call(server.url, "GET", "/estado.json")
    expect(status.body.estado).toBe("caido")
    expect(status.body.incidentes).toHaveLength(1)
    expect(Date.parse(status.body.actualizado_en)).not.toBeNaN()
    const html = await fetch(`${server.url}/estado`)
    expect(await html.text()).toContain("Caído")
  })
})
