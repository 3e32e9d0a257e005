/** The simulated processor over real HTTP on loopback: test cards, signed callbacks, query, close. */
import { createServer, type Server } from "node:http"
import { CardSignature } from "@switch/core"
import { Either } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type CardSim, startCardSim, TARJETAS } from "../src/index.js"

const CLAVE = "clave-de-prueba"
let sim: CardSim
let receiver: Server
let receiverUrl = ""
const received: Array<{ body: string; signature: string | undefined }> = []

const api = async (method: string, path: string, body?: unknown, clave = CLAVE) => {
  const r = await fetch(`${sim.url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${clave}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: r.status, body: (await r.json()) as any }
}

const open = (cargo_id: string, monto = 10_300, expiraEnMs = 6 * 60_000) =>
  api("POST", "/v1/cargos", {
    cargo_id,
    link_id: "l1",
    monto,
    url_retorno: "http://127.0.0.1:1/l/l1",
    url_callback: receiverUrl,
    expira_en: new Date(Date.now() + expiraEnMs).toISOString()
  })

const submit = (cargo_id: string, numero: string) =>
  fetch(`${sim.url}/formulario/${cargo_id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ numero, vence: "12/30", cvv: "123" }).toString(),
    redirect: "manual"
  })

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
  expect(check()).toBe(true)
}

beforeAll(async () => {
  sim = await startCardSim({ port: 0, clave: CLAVE })
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: req.headers[CardSignature.HEADER] as string | undefined
      })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/cb`
})
afterAll(async () => {
  await sim.close()
  await new Promise((r) => receiver.close(r))
})
beforeEach(() => {
  sim.processor.reiniciar()
  received.length = 0
})

describe("card-sim", () => {
  it("refuses callers without the shared key", async () => {
    expect((await api("GET", "/v1/cargos/x", undefined, "otra")).status).toBe(401)
  })

  it("opens one form per cargo_id and shows the total on the hosted form", async () => {
    const first = await open("c1")
    const again = await open("c1", 99_999)
    expect(again.body.url_formulario).toBe(first.body.url_formulario)
    const form = await (await fetch(first.body.url_formulario)).text()
    expect(form).toContain("Bs 103,00")
    expect(form).toContain('autocomplete="cc-number"')
  })

  it("the approval card charges, sends a signed callback and the payer returns to the service", async () => {
    await open("c2")
    const r = await submit("c2", TARJETAS.aprobada)
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe("http://127.0.0.1:1/l/l1")
    await waitFor(() => received.length === 1)
    const cb = received[0]!
    expect(JSON.parse(cb.body)).toMatchObject({ evento: "cargo.aprobado", cargo_id: "c2", monto: 10_300 })
    expect(Either.isRight(CardSignature.verify(CLAVE, cb.signature, cb.body, new Date()))).toBe(true)
    expect((await api("GET", "/v1/cargos/c2")).body).toMatchObject({ estado: "aprobado", referencia: /^TJ/ })
  })

  it("the decline card charges nothing; the no-answer card charges without a callback", async () => {
    await open("c3")
    await submit("c3", TARJETAS.rechazada)
    await waitFor(() => received.length === 1)
    expect(JSON.parse(received[0]!.body)).toMatchObject({ evento: "cargo.rechazado", referencia: null })
    await open("c4")
    await submit("c4", TARJETAS.sinRespuesta)
    expect((await api("GET", "/v1/cargos/c4")).body.estado).toBe("aprobado")
    await new Promise((r) => setTimeout(r, 100))
    expect(received).toHaveLength(1)
  })

  it("a form closed by the service's query or past its expiry can no longer be paid", async () => {
    await open("c5")
    expect((await api("POST", "/v1/cargos/c5/cerrar")).body.estado).toBe("cerrado")
    expect((await submit("c5", TARJETAS.aprobada)).status).toBe(410)
    await open("c6", 10_300, 1)
    await new Promise((r) => setTimeout(r, 5))
    expect((await api("GET", "/v1/cargos/c6")).body.estado).toBe("vencido")
    expect((await submit("c6", TARJETAS.aprobada)).status).toBe(410)
    expect((await api("GET", "/v1/cargos/nunca")).status).toBe(404)
  })

  it("the nightly close credits the day's approved charges except those told to leave out", async () => {
    await open("c7")
    await submit("c7", TARJETAS.aprobada)
    await open("c8")
    await submit("c8", TARJETAS.sinRespuesta)
    await api("PATCH", "/admin/config", { omitirDelCierre: ["c8"] })
    const dia = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10)
    expect((await api("GET", `/v1/cierres/${dia}`)).body).toEqual({ dia, estado: "pendiente" })
    await api("PATCH", "/admin/config", { relojDesfaseMs: 30 * 3600_000 })
    const close = await api("GET", `/v1/cierres/${dia}`)
    expect(close.body.estado).toBe("cerrado")
    expect(close.body.creditos).toEqual([
      { cargo_id: "c7", referencia: expect.stringMatching(/^TJ/), monto: 10_300 }
    ])
  })
})
