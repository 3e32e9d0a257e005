/**
 * Two server processes on one database behave as one: idempotency and rate limits hold
 * across them, and the logs of a full run hold no key, OTP, phone or id number.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openPage } from "../support/live.js"
import { call, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

const PAYER_ID = "20987654"
const PAYER_PHONE = "04167654321"
/** The sandbox bank's approving code (test mode). */
const OTP = "12345678"

let stack: Stack
beforeAll(async () => {
  stack = await startStack({ SWITCH_WORKERS: "2", SWITCH_LOG_LEVEL: "info", SWITCH_API_POR_MINUTO: "100000" })
})
afterAll(() => stack?.stop())

describe("two processes", () => {
  it("100 concurrent creations with one idempotency key make one link, every answer the same id", async () => {
    const body = { monto: 12.34, concepto: "Concurrente", idempotency_key: "cien-a-la-vez" }
    const replies = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(stack.url, "POST", "/switch/v1/links", { key: stack.demoKey, body })
      )
    )
    expect(replies.every((r) => r.status === 200 || r.status === 201)).toBe(true)
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1)
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    const list = await call(stack.url, "GET", "/switch/v1/links?q=Concurrente", { key: stack.demoKey })
    expect(list.body).toHaveLength(1)
  })

  it("after a run of real traffic, payments on the page included, the logs hold no key, secret, OTP, phone or id number", async () => {
    const { liveKey, testKey } = await merchantWithLiveKey(stack, "logs_limpios")
    const created = await call(stack.url, "POST", "/switch/v1/links", {
      key: testKey,
      body: { monto: 5, concepto: "Log" }
    })
    await call(stack.url, "POST", `/switch/v1/links/${created.body.id}/simular`, {
      key: testKey,
      body: { resultado: "pagado" }
    })
    await call(stack.url, "GET", "/switch/v1/links", { key: liveKey })
    await call(stack.url, "GET", "/switch/v1/links", { key: `${testKey}x` })
    // A payer on the page: a rejected code, then the approving one, with their phone and id number.
    const onPage = await call(stack.url, "POST", "/switch/v1/links", {
      key: testKey,
      body: { monto: 9, concepto: "Log del pagador" }
    })
    const page = await openPage(stack.url, onPage.body.id)
    const payer = { banco: "0102", tipo_doc: "V", identificacion: PAYER_ID, telefono: PAYER_PHONE }
    expect((await page.post("/codigo", payer)).status).toBe(200)
    expect((await page.post("/pagar", { ...payer, otp: "11111111" })).body.estado).toBe("rechazado")
    expect((await page.post("/pagar", { ...payer, otp: OTP })).body.estado).toBe("pagado")
    const keyBodies = [stack.demoKey, liveKey, testKey].map((k) => k.split(":")[1] ?? "")
    const output = stack.output()
    expect(output.length).toBeGreaterThan(0)
    for (const secret of [...keyBodies, "sk_live_", "admin-token-de-prueba"]) {
      // The demo key is printed once by design in the start banner; nothing else may show one.
      const occurrences = output.split(secret).length - 1
      expect(occurrences, secret).toBe(secret === keyBodies[0] ? 1 : 0)
    }
    expect(output).not.toMatch(/\b04(12|14|16|22|24|26)\d{7}\b/)
    for (const payerData of [PAYER_ID, PAYER_PHONE.slice(1), OTP, "11111111"]) {
      expect(output, payerData).not.toContain(payerData)
    }
  })
})
