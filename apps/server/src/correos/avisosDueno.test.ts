/**
 * Mail to a merchant's owners (issue 45), read from the development mailbox: approved,
 * suspended (with the operator's note), and a settlement closed without paying by two
 * operators (with the note). The settlement the bank could not credit is in
 * operador/colaBanco.test.ts.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { query } from "../../test/webhooksReceiver.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de operador"
let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
}, 120_000)
afterAll(() => server?.close())

interface Correo {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** The development mailbox's mails to `to`, newest first. */
const buzon = async (to: string): Promise<Array<Correo>> =>
  ((await call(server.url, "GET", "/panel/dev/correos?formato=json")).body as Array<Correo>).filter(
    (m) => m.to === to
  )

/** Waits for the mail to `to` whose subject matches. */
const correo = async (to: string, subject: RegExp) => {
  let found: Correo | undefined
  await expect
    .poll(
      async () => {
        found = (await buzon(to)).find((m) => subject.test(m.subject))
        return found !== undefined
      },
      { timeout: 15_000, interval: 200 }
    )
    .toBe(true)
  return found as Correo
}

const signedIn = async (rol: string) => {
  const headers = await signInOperator(server.url, rol, { password: PASSWORD, checkCreated: true })
  return (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { headers, ...(body === undefined ? {} : { body }) })
}

describe("the owners hear what operators did", () => {
  it("approval and suspension (with the operator's note) each mail the owner once", async () => {
    const m = await registerMerchant(server.url)
    const email = `${m.codigo}@example.com`
    await approveMerchant(server, m.codigo)
    const aprobado = await correo(email, /fue aprobado/)
    expect(aprobado.subject).toBe(`Comercio ${m.codigo} fue aprobado en Switch`)
    expect(aprobado.text).toContain("ya puedes operar en modo live")

    const riesgo = await signedIn("riesgo")
    const suspended = await riesgo("POST", `/admin/v1/operador/comercios/${m.codigo}/suspender`, {
      nota: "Contracargos repetidos en una semana"
    })
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200)
    const suspendido = await correo(email, /fue suspendido/)
    expect(suspendido.text).toContain("no puedes crear links ni lotes")
    expect(suspendido.text).toContain("Nota del operador: Contracargos repetidos en una semana")
    // Suspending again changes nothing and mails nothing more; approving again neither.
    await riesgo("POST", `/admin/v1/operador/comercios/${m.codigo}/suspender`, {})
    await new Promise((r) => setTimeout(r, 1500))
    const all = await buzon(email)
    expect(all.filter((c) => /fue suspendido/.test(c.subject))).toHaveLength(1)
    expect(all.filter((c) => /fue aprobado/.test(c.subject))).toHaveLength(1)
    // No key, token or password in the notices (the sign-up's own password link aside).
    for (const c of all.filter((c) => !c.subject.startsWith("Define tu contraseña")))
      expect(c.text).not.toMatch(/sk_(test|live)_|token=/)
  })

  it("a settlement closed without paying by two operators mails the owner the amount and the note, and the list shows why", async () => {
    const m = await registerMerchant(server.url)
    const email = `${m.codigo}@example.com`
    const comercioId = (await call(server.url, "GET", `/admin/v1/comercios/${m.codigo}`, { headers: TOKEN }))
      .body.id as string
    const id = randomUUID()
    await query(
      server.databaseUrl,
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, motivo_rechazo, created_at)
       values ($1, $2, 'test', 'liquidacion', 'REVISION', 123456, 'VES', 'DESCONOCIDA', now())`,
      [id, comercioId]
    )
    const first = await signedIn("tesoreria")
    const second = await signedIn("tesoreria")
    const base = `/admin/v1/operador/revision/liquidaciones/${id}`
    expect((await first("POST", `${base}/cerrar`, { nota: "El banco devolvió el crédito" })).status).toBe(202)
    // Asked for only: nothing done, nothing told.
    expect((await buzon(email)).filter((c) => /se cerró sin pagar/.test(c.subject))).toEqual([])
    const closed = await second("POST", `${base}/cerrar/confirmar`, {})
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    const cerrada = await correo(email, /se cerró sin pagar/)
    expect(cerrada.subject).toBe(`Una liquidación de Comercio ${m.codigo} se cerró sin pagar`)
    expect(cerrada.text).toContain("Bs 1.234,56")
    expect(cerrada.text).toContain("Nota del operador: El banco devolvió el crédito")
    expect(cerrada.text).toContain(id)
    // The merchant's list of settlements says why, not only RECHAZADA.
    const list = await call(server.url, "GET", "/switch/v1/liquidaciones", { key: m.key })
    expect(list.status).toBe(200)
    expect(list.body.find((l: { id: string }) => l.id === id)).toMatchObject({
      estado: "RECHAZADA",
      motivo: "cerrada sin pagar: El banco devolvió el crédito"
    })
  })
})
