/**
 * The card pilot on the payment page against the real server and apps/card-sim over HTTP: the
 * form with its surcharge, approval and decline by signed callbacks, mutual exclusion with
 * immediate debit, pay another way, the 6-minute expiry (controlled clock) and callbacks that
 * are forged, replayed or received twice.
 */

import { type CardSim, startCardSim, TARJETAS } from "@switch/card-sim"
import { BankCalendar, CardSignature } from "@switch/core"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ControlledClock,
  openPage,
  PAYER,
  scriptedBank,
  startCheckoutServer
} from "../../test/checkoutHarness.js"
import { approveMerchant, call, registerMerchant, type TestServer } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { freePort } from "../platform/FreePort.mjs"

const CLAVE = "clave-del-procesador"
const PASSWORD = "una clave larga de tesoreria"
const clock: ControlledClock = { offsetMs: 0, fixed: null }
const live = scriptedBank()
// Settlements of the merchant are credited at once by this live bank.
const bank = {
  ...live.bank,
  credit: () =>
    Effect.succeed({
      estado: "LIQUIDADA" as const,
      referencia_banco: "LIQ0001",
      endtoend: null,
      motivo_rechazo: null
    })
}
let sim: CardSim
let server: TestServer
let liveKey: string
let testKey: string
let codigo: string

beforeAll(async () => {
  sim = await startCardSim({ port: 0, clave: CLAVE })
  const port = await freePort()
  server = await startCheckoutServer({
    clock,
    liveBank: bank,
    port,
    settings: {
      baseUrl: `http://127.0.0.1:${port}`,
      cardUrl: sim.url,
      cardClave: Redacted.make(CLAVE),
      tarjetaTecho: 200_000,
      tarjetaCierreSegundos: 0.3
    }
  })
  const merchant = await registerMerchant(server.url)
  codigo = merchant.codigo
  testKey = merchant.key
  liveKey = await approveMerchant(server, merchant.codigo)
  const on = await call(server.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { tarjeta_habilitada: true }
  })
  expect(on.status).toBe(200)
})
afterAll(async () => {
  await server.close()
  await sim.close()
})

const newLink = async (key: string, body: Record<string, unknown> = {}) => {
  const r = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 100, concepto: "Pedido", expira_horas: 720, ...body }
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

const estado = async (id: string) => (await call(server.url, "GET", `/l/${id}/estado`)).body.estado as string

const until = async (id: string, wanted: string, ms = 8_000) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline && (await estado(id)) !== wanted) await new Promise((r) => setTimeout(r, 100))
  expect(await estado(id)).toBe(wanted)
}

/** The payer types a card on the processor's hosted form; answers where the browser goes next. */
const payOnForm = async (formUrl: string, numero: string) => {
  const r = await fetch(formUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ numero, vence: "12/30", cvv: "123" }).toString(),
    redirect: "manual"
  })
  expect(r.status).toBe(303)
  return r.headers.get("location") as string
}

const pagado = async (linkId: string) => {
  const events = await call(server.url, "GET", "/switch/v1/eventos?evento=link.pagado", { key: liveKey })
  return (events.body as Array<{ data: Record<string, unknown> }>).filter((e) => e.data.link_id === linkId)
}

let phone = 2000000
const payer = () => ({ ...PAYER, telefono: `0414${String(phone++).padStart(7, "0")}` })

describe("card payment (pilot)", () => {
  it("bills the 3 % surcharge, holds the link in cobrando and an approval pays it with metodo tarjeta, recargo_tarjeta and the card reference", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const opened = await page.post("/tarjeta", {})
    expect(opened.status).toBe(200)
    expect(opened.body).toMatchObject({ recargo: 3, total: 103 })
    expect(await estado(id)).toBe("cobrando")
    const form = await (await fetch(opened.body.url_formulario)).text()
    expect(form).toContain("Bs 103,00")
    const back = await payOnForm(opened.body.url_formulario, TARJETAS.aprobada)
    expect(back).toBe(`${server.url}/l/${id}/tarjeta`)
    await until(id, "pagado")
    const receipt = await (await fetch(`${server.url}/l/${id}`)).text()
    expect(receipt).toContain("Total pagado con tarjeta")
    expect(receipt).toContain("Bs 103,00")
    const [event, ...more] = await pagado(id)
    expect(more).toHaveLength(0)
    expect(event?.data).toMatchObject({
      link_id: id,
      monto: 100,
      propina: 0,
      metodo: "tarjeta",
      recargo_tarjeta: 3,
      referencia: expect.stringMatching(/^TJ\d{8}$/),
      mode: "live"
    })
  })

  it("while the form is open neither a debit nor a second form; a decline frees the link for immediate debit", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const opened = await page.post("/tarjeta", {})
    expect(opened.status).toBe(200)
    const debit = await page.post("/pagar", { ...payer(), otp: "11112222" })
    expect(debit.status).toBe(409)
    expect(debit.body).toMatchObject({ error: "link_no_disponible", estado: "cobrando" })
    expect((await page.post("/tarjeta", {})).status).toBe(409)
    await payOnForm(opened.body.url_formulario, TARJETAS.rechazada)
    await until(id, "pendiente")
    const paid = await page.post("/pagar", { ...payer(), otp: "11112222" })
    expect(paid.body.estado).toBe("pagado")
    expect((await pagado(id))[0]?.data.metodo).toBeUndefined()
  })

  it("is not offered on test links, below Bs 5 with the surcharge, above the pilot ceiling, nor without the pilot", async () => {
    for (const [key, monto] of [
      [testKey, 100],
      [liveKey, 4.8],
      [liveKey, 1950]
    ] as const) {
      const page = await openPage(server.url, await newLink(key, { monto }))
      const r = await page.post("/tarjeta", {})
      expect(r.status).toBe(409)
      expect(r.body.error).toBe("tarjeta_no_disponible")
    }
    // Bs 4,85 bills Bs 5,00: the processor's minimum counts the surcharge.
    const atMinimum = await openPage(server.url, await newLink(liveKey, { monto: 4.85 }))
    expect((await atMinimum.post("/tarjeta", {})).body).toMatchObject({ total: 5 })
  })

  it("the surcharge is the merchant's own: an operator sets 5 % and Bs 100 bills Bs 105", async () => {
    const other = await registerMerchant(server.url)
    const key = await approveMerchant(server, other.codigo)
    const set = await call(server.url, "PATCH", `/admin/v1/comercios/${other.codigo}`, {
      headers: { "x-admin-token": "admin-de-prueba" },
      body: { tarjeta_habilitada: true, recargo_tarjeta_pct: 5 }
    })
    expect(set.body).toMatchObject({ tarjeta_habilitada: true, recargo_tarjeta_pct: 5 })
    const id = await newLink(key)
    const page = await openPage(server.url, id)
    expect(page.html).toContain("recargo de 5 %")
    expect(page.html).toContain("Bs 105,00")
    const opened = await page.post("/tarjeta", {})
    expect(opened.body).toMatchObject({ recargo: 5, total: 105 })
    expect((await page.post("/tarjeta/otra-forma", {})).body).toEqual({ estado: "pendiente" })
  })

  it("pay another way: nothing charged frees the link at once; charged with no answer pays it", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const opened = await page.post("/tarjeta", {})
    const freed = await page.post("/tarjeta/otra-forma", {})
    expect(freed.body).toEqual({ estado: "pendiente" })
    // The processor closed the form: nothing can be charged on it any more.
    const late = await fetch(opened.body.url_formulario, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `numero=${TARJETAS.aprobada}`,
      redirect: "manual"
    })
    expect(late.status).toBe(410)

    const charged = await newLink(liveKey)
    const page2 = await openPage(server.url, charged)
    const form = await page2.post("/tarjeta", {})
    await payOnForm(form.body.url_formulario, TARJETAS.sinRespuesta)
    expect(await estado(charged)).toBe("cobrando")
    expect((await page2.post("/tarjeta/otra-forma", {})).body).toEqual({ estado: "pagado" })
    expect((await pagado(charged))[0]?.data).toMatchObject({ metodo: "tarjeta", recargo_tarjeta: 3 })
  })

  it("the payer coming back from the form settles a charge whose callback never came", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const form = await page.post("/tarjeta", {})
    const back = await payOnForm(form.body.url_formulario, TARJETAS.sinRespuesta)
    const r = await fetch(back, { redirect: "manual" })
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe(`/l/${id}`)
    expect(await estado(id)).toBe("pagado")
  })

  it("a card form and an immediate debit racing on one link: one payment", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const [card, debit] = await Promise.all([
      page.post("/tarjeta", {}),
      page.post("/pagar", { ...payer(), otp: "11112222" })
    ])
    const winners = [card.status === 200, debit.body.estado === "pagado"].filter(Boolean)
    expect(winners).toHaveLength(1)
    if (card.status === 200) {
      await payOnForm(card.body.url_formulario, TARJETAS.aprobada)
      await until(id, "pagado")
    }
    expect(await estado(id)).toBe("pagado")
    expect(await pagado(id)).toHaveLength(1)
  })

  it("a forged callback and a replayed one are refused; one received twice is applied once", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const form = await page.post("/tarjeta", {})
    const cargoId = new URL(form.body.url_formulario).pathname.split("/").pop() as string
    const body = JSON.stringify({
      id: "evt_forjado",
      evento: "cargo.aprobado",
      cargo_id: cargoId,
      referencia: "TJFALSO",
      monto: 10_300,
      creado_en: new Date().toISOString()
    })
    const post = (signature: string, text = body) =>
      call(server.url, "POST", "/tarjeta/callbacks", {
        body: JSON.parse(text),
        headers: { "x-card-signature": signature }
      })
    const t = Math.floor(Date.now() / 1000)
    const forged = await post(CardSignature.header("otra-clave", t, body))
    expect(forged.status).toBe(401)
    expect(forged.body.error).toBe("firma_invalida")
    const replayed = await post(CardSignature.header(CLAVE, t - 3600, body))
    expect(replayed.status).toBe(401)
    expect(replayed.body.error).toBe("firma_vencida")
    expect((await post("")).status).toBe(401)
    expect(await estado(id)).toBe("cobrando")

    await payOnForm(form.body.url_formulario, TARJETAS.aprobada)
    await until(id, "pagado")
    const real = sim.processor.callbacksEnviados.find((c) => c.cargo_id === cargoId)
    expect(real).toBeDefined()
    expect(await sim.send(real!, `${server.url}/tarjeta/callbacks`)).toBe(200)
    expect(await pagado(id)).toHaveLength(1)
  })

  it("the nightly close credits approved charges: the merchant is settled without the surcharge and link.acreditado is sent; a charge missing from the close goes to the review queue", async () => {
    const approve = async () => {
      const id = await newLink(liveKey)
      const page = await openPage(server.url, id)
      const form = await page.post("/tarjeta", {})
      await payOnForm(form.body.url_formulario, TARJETAS.aprobada)
      await until(id, "pagado")
      return { id, cargoId: new URL(form.body.url_formulario).pathname.split("/").pop() as string }
    }
    const credited = await approve()
    const missing = await approve()
    sim.processor.config.omitirDelCierre = [missing.cargoId]
    const dia = BankCalendar.caracasDayKey(new Date())
    sim.processor.cierre(dia, true)
    const acreditado = async (linkId: string) => {
      const events = await call(server.url, "GET", "/switch/v1/eventos?evento=link.acreditado", {
        key: liveKey
      })
      return (events.body as Array<{ data: Record<string, unknown> }>).filter(
        (e) => e.data.link_id === linkId
      )
    }
    expect(await acreditado(credited.id)).toHaveLength(0)
    // The next day: the service reads the processor's close of the day that ended.
    clock.offsetMs = 30 * 3600_000
    const deadline = Date.now() + 15_000
    while (Date.now() < deadline && (await acreditado(credited.id)).length === 0)
      await new Promise((r) => setTimeout(r, 200))
    const [event] = await acreditado(credited.id)
    // Bs 100 with no tip, 1 % commission: Bs 99 reach the merchant; the Bs 3 surcharge is not theirs.
    expect(event?.data).toMatchObject({ link_id: credited.id, monto_acreditado: 99, mode: "live" })
    expect(await acreditado(missing.id)).toHaveLength(0)

    const headers = await signInOperator(server.url, "tesoreria", { password: PASSWORD, checkCreated: true })
    const operator = (method: string, path: string, body?: unknown) =>
      call(server.url, method, path, { body, headers })
    const queue = await operator("GET", "/admin/v1/operador/revision")
    expect(queue.status).toBe(200)
    const item = queue.body.data.find((i: { tipo: string; id: string }) => i.tipo === "cargo_tarjeta")
    expect(item).toMatchObject({ id: missing.cargoId, link_id: missing.id, monto: 100, recargo_tarjeta: 3 })
    const base = `/admin/v1/operador/revision/cargos-tarjeta/${missing.cargoId}`
    expect((await operator("POST", `${base}/consultar`)).body).toMatchObject({
      estado: "faltante",
      procesador: "Cobrado"
    })
    expect((await operator("POST", `${base}/marcar-acreditado`, {})).status).toBe(400)
    // Four eyes: the first operator's request waits; the same operator cannot confirm it.
    const asked = await operator("POST", `${base}/marcar-acreditado`, { referencia: "CRED-2231" })
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    expect(asked.body.estado).toBe("pendiente_confirmacion")
    expect((await operator("POST", `${base}/cerrar`, { nota: "otra cosa" })).body.error).toBe(
      "accion_pendiente"
    )
    expect((await operator("POST", `${base}/marcar-acreditado/confirmar`, {})).body.error).toBe("cuatro_ojos")
    expect(await acreditado(missing.id)).toHaveLength(0)
    const second = await signInOperator(server.url, "tesoreria", { password: PASSWORD, checkCreated: true })
    const marked = await call(server.url, "POST", `${base}/marcar-acreditado/confirmar`, {
      body: {},
      headers: second
    })
    expect(marked.status, JSON.stringify(marked.body)).toBe(200)
    expect(marked.body.estado).toBe("acreditado")
    expect((await operator("POST", `${base}/cerrar`, { nota: "ya acreditado" })).status).toBe(409)
    const after = Date.now() + 15_000
    while (Date.now() < after && (await acreditado(missing.id)).length === 0)
      await new Promise((r) => setTimeout(r, 200))
    expect(await acreditado(missing.id)).toHaveLength(1)
    const again = await operator("GET", "/admin/v1/operador/revision")
    expect(again.body.data.some((i: { tipo: string }) => i.tipo === "cargo_tarjeta")).toBe(false)
    clock.offsetMs = 0
  })

  it("a form open for 6 minutes without payment expires and the link is available again", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    expect((await page.post("/tarjeta", {})).status).toBe(200)
    clock.offsetMs = 5 * 60_000
    await new Promise((r) => setTimeout(r, 2_500))
    expect(await estado(id)).toBe("cobrando")
    clock.offsetMs = 6 * 60_000 + 1_000
    await until(id, "pendiente")
    clock.offsetMs = 0
  })
  it("the processor failing to open the form answers 503 and leaves the link free for immediate debit", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    sim.processor.config.fallarAperturas = 1
    const down = await page.post("/tarjeta", {})
    expect(down.status).toBe(503)
    expect(down.body.error).toBe("procesador_no_disponible")
    expect(await estado(id)).toBe("pendiente")
    const paid = await page.post("/pagar", { ...payer(), otp: "11112222" })
    expect(paid.body.estado).toBe("pagado")
    expect(await pagado(id)).toHaveLength(1)
  })

  it("an approval arriving after the link was paid another way pays nothing twice: it waits in the review queue as a possible double charge, never settles, and closes with four eyes", async () => {
    const id = await newLink(liveKey)
    const page = await openPage(server.url, id)
    const form = await page.post("/tarjeta", {})
    const cargoId = new URL(form.body.url_formulario).pathname.split("/").pop() as string
    expect((await page.post("/tarjeta/otra-forma", {})).body).toEqual({ estado: "pendiente" })
    expect((await page.post("/pagar", { ...payer(), otp: "11112222" })).body.estado).toBe("pagado")
    // The processor states, late, that it charged the card after all.
    const body = JSON.stringify({
      id: "evt_tardio",
      evento: "cargo.aprobado",
      cargo_id: cargoId,
      referencia: "TJTARDE1",
      monto: 10_300,
      creado_en: new Date().toISOString()
    })
    const late = await call(server.url, "POST", "/tarjeta/callbacks", {
      body: JSON.parse(body),
      headers: { "x-card-signature": CardSignature.header(CLAVE, Math.floor(Date.now() / 1000), body) }
    })
    expect(late.status).toBe(200)
    const events = await pagado(id)
    expect(events).toHaveLength(1)
    expect(events[0]?.data.metodo).toBeUndefined()

    const first = await signInOperator(server.url, "tesoreria", { password: PASSWORD, checkCreated: true })
    const second = await signInOperator(server.url, "tesoreria", { password: PASSWORD, checkCreated: true })
    const as = (headers: Record<string, string>) => (method: string, path: string, b?: unknown) =>
      call(server.url, method, path, { body: b, headers })
    const queue = await as(first)("GET", "/admin/v1/operador/revision")
    const item = queue.body.data.find((i: { id: string }) => i.id === cargoId)
    expect(item).toMatchObject({
      tipo: "cargo_tarjeta",
      link_id: id,
      estado: "duplicado",
      referencia: "TJTARDE1"
    })
    expect(item.motivo).toContain("doble cobro")
    const base = `/admin/v1/operador/revision/cargos-tarjeta/${cargoId}`
    const credit = await as(first)("POST", `${base}/marcar-acreditado`, { referencia: "CRED-9" })
    expect(credit.status).toBe(409)
    expect(credit.body.error).toBe("cargo_duplicado")
    expect((await as(first)("POST", `${base}/cerrar`, { nota: "reembolsado en el procesador" })).status).toBe(
      202
    )
    expect((await as(first)("POST", `${base}/cerrar/confirmar`, {})).body.error).toBe("cuatro_ojos")
    const closed = await as(second)("POST", `${base}/cerrar/confirmar`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body).toEqual({ id: cargoId, estado: "cerrado" })
    const after = await as(second)("GET", "/admin/v1/operador/revision")
    expect(after.body.data.some((i: { id: string }) => i.id === cargoId)).toBe(false)
    const audit = await as(second)(
      "GET",
      `/admin/v1/operador/auditoria?objeto_tipo=cargo_tarjeta&objeto_id=${cargoId}`
    )
    expect(audit.status).toBe(200)
    expect(audit.body.data.map((a: { accion: string }) => a.accion)).toEqual(
      expect.arrayContaining(["cargo_tarjeta.cerrar_solicitado", "cargo_tarjeta.cerrar_confirmado"])
    )
  })

  it("a charge the processor approved just before Caracas midnight, learned of after it, is credited by its day's close and never flagged missing", async () => {
    // A Caracas midnight (04:00 UTC) three days ahead, so no close of its days was read yet.
    const midnight = new Date(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 3, 4)
    )
    const at = (target: number) => target - Date.now()
    const id = await newLink(liveKey)
    clock.offsetMs = at(midnight.getTime() - 2 * 60_000)
    const page = await openPage(server.url, id)
    const form = await page.post("/tarjeta", {})
    expect(form.status).toBe(200)
    const cargoId = new URL(form.body.url_formulario).pathname.split("/").pop() as string
    // The processor approves at 23:59:30; the callback reaches the service at 00:01.
    sim.processor.config.relojDesfaseMs = at(midnight.getTime() - 30_000)
    clock.offsetMs = at(midnight.getTime() + 60_000)
    await payOnForm(form.body.url_formulario, TARJETAS.aprobada)
    await until(id, "pagado")
    // Both days end; their closes run.
    sim.processor.config.relojDesfaseMs = at(midnight.getTime() + 26 * 3600_000)
    clock.offsetMs = at(midnight.getTime() + 26 * 3600_000)
    try {
      const deadline = Date.now() + 15_000
      const credited = async () => {
        const events = await call(server.url, "GET", "/switch/v1/eventos?evento=link.acreditado", {
          key: liveKey
        })
        return (events.body as Array<{ data: Record<string, unknown> }>).some((e) => e.data.link_id === id)
      }
      while (Date.now() < deadline && !(await credited())) await new Promise((r) => setTimeout(r, 200))
      expect(await credited()).toBe(true)
      const headers = await signInOperator(server.url, "tesoreria", {
        password: PASSWORD,
        checkCreated: true
      })
      const queue = await call(server.url, "GET", "/admin/v1/operador/revision", { headers })
      expect(queue.body.data.some((i: { id: string }) => i.id === cargoId)).toBe(false)
    } finally {
      sim.processor.config.relojDesfaseMs = 0
      clock.offsetMs = 0
    }
  })
})
