/**
 * kill -9 while an operator's "pay" is at the bank never pays twice (issue 32): a settlement the
 * bank left in review is paid from the console with four eyes; the bank applies the credit and
 * never answers, and the server (embedded Postgres included) is killed with SIGKILL while the
 * confirmation waits. After a restart on the same data directory, retrying the confirmation and
 * the payment is refused (the order is on record as sent), asking the bank settles it with the
 * bank's reference, and the bank simulator counts exactly one transfer request and one credit
 * applied for it, with one `link.acreditado`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import {
  allEvents,
  type Bank,
  bankServerEnv,
  eventually,
  liveMerchant,
  newLink,
  openPage,
  type ServerProcess,
  startBank,
  startServer,
  stopBankServer
} from "../support/live.js"
import { ADMIN_TOKEN, call } from "../support/stack.js"

const PASSWORD = "clave-de-tesoreria-larga"
let bank: Bank
let env: Record<string, string>
let server: ServerProcess | undefined

beforeAll(async () => {
  bank = await startBank()
  env = await bankServerEnv(bank, { SWITCH_BANK_TIMEOUT_MS: "30000" })
})
afterAll(() => stopBankServer(server, bank, env))

/** A tesoreria operator signed in through the API: its calls carry the cookie and CSRF token. */
const tesoreria = async (url: string) => {
  const email = `tes-${Math.random().toString(36).slice(2, 10)}@switch.example`
  const created = await call(url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    body: { email, password: PASSWORD, rol: "tesoreria" }
  })
  expect(created.status).toBe(201)
  const signed = await call(url, "POST", "/admin/v1/operador/sesion", {
    body: { email, password: PASSWORD, codigo: totpCode(created.body.totp_secret, totpStep(Date.now())) }
  })
  expect(signed.status).toBe(200)
  const cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  return (method: string, path: string, body?: unknown) =>
    call(server?.url ?? url, method, path, {
      ...(body === undefined ? {} : { body }),
      headers: { cookie, "x-csrf-token": signed.body.csrf_token }
    })
}

describe("kill -9 during an operator's pay", () => {
  it("after a restart the payment is not sent again, asking the bank settles it, and the bank counts one transfer", async () => {
    server = await startServer(env)
    const url = server.url
    const m = await liveMerchant(url, "pagokill")
    expect(
      (
        await call(url, "PATCH", "/admin/v1/comercios/pagokill", {
          headers: { "x-admin-token": ADMIN_TOKEN },
          body: { liquidacion_inmediata: true }
        })
      ).status
    ).toBe(200)
    // The bank takes the payer's debit but answers the settlement's credit with 503s: it goes to review.
    await bank.fault({ ruta: "transferencia", tipo: "error_5xx", veces: 100 })
    const payer = await bank.payer()
    const linkId = await newLink(url, m.liveKey, 75)
    const paid = await (await openPage(url, linkId)).pay(payer, await bank.code(payer, 7500))
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)

    const first = await tesoreria(url)
    const second = await tesoreria(url)
    const settlement = await eventually(
      "the settlement in review",
      async () =>
        ((await first("GET", "/admin/v1/operador/revision")).body.data as Array<any>).find(
          (i) => i.tipo === "liquidacion" && i.link_id === linkId
        ),
      40_000,
      250
    )
    const base = `/admin/v1/operador/revision/liquidaciones/${settlement.id}`
    await bank.clearFaults()
    // The next credit moves the money and the bank never answers it.
    await bank.fault({ ruta: "transferencia", tipo: "timeout_tras_aplicar", ms: 60_000, veces: 1 })
    const before = await bank.counters()

    const asked = await first("POST", `${base}/pagar`, { nota: "pagar por el banco" })
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    // The confirmation sends the order and waits for the bank, which never answers.
    const inFlight = second("POST", `${base}/pagar/confirmar`).catch((e: unknown) => e)
    await eventually(
      "the bank applied the credit",
      async () => (await bank.counters()).creditos_aplicados === before.creditos_aplicados + 1,
      20_000,
      100
    )
    await server.kill9()
    await inFlight
    server = await startServer(env)

    // Retrying is refused: the order is on record as sent, under its own id.
    const again = await second("POST", `${base}/pagar/confirmar`)
    expect(again.status, JSON.stringify(again.body)).toBe(409)
    const anew = await first("POST", `${base}/pagar`, {})
    expect(anew.status).toBe(409)
    expect(anew.body.error).toBe("pago_en_curso")
    expect((await first("POST", `${base}/marcar-pagada`, { referencia_banco: "OTRA12345" })).body.error).toBe(
      "pago_en_curso"
    )

    // Asking the bank about that order settles it with the bank's reference.
    const settled = await eventually(
      "the bank confirms the order",
      async () => {
        const reply = await first("POST", `${base}/consultar`)
        return reply.body.estado === "LIQUIDADA" ? reply.body : undefined
      },
      20_000,
      500
    )
    expect(settled.referencia_banco).toEqual(expect.any(String))

    const after = await bank.counters()
    expect((after.solicitudes.transferencia ?? 0) - (before.solicitudes.transferencia ?? 0)).toBe(1)
    expect(after.creditos_aplicados - before.creditos_aplicados).toBe(1)
    const acreditado = (await allEvents(server.url, m.liveKey)).filter(
      (e) => e.evento === "link.acreditado" && e.data.link_id === linkId
    )
    expect(acreditado).toHaveLength(1)
    const queue = (await first("GET", "/admin/v1/operador/revision")).body.data as Array<any>
    expect(queue.filter((i) => i.tipo === "liquidacion")).toEqual([])
  })
})
