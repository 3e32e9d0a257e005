/** The simulator over real HTTP on loopback: money moves once per operation id, and faults act as told. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type BankSim, startBankSim } from "../src/index.js"

let sim: BankSim

const post = async (path: string, body: unknown, method = "POST") => {
  const r = await fetch(`${sim.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: r.status, body: (await r.json()) as any }
}
const get = async (path: string) => {
  const r = await fetch(`${sim.url}${path}`)
  return { status: r.status, body: (await r.json()) as any }
}

const PAGADOR = { tipo: "telefono", valor: "04141234567", banco: "0102", identificacion: "V-12345678" }
const COBRADOR = {
  tipo: "cuenta",
  valor: "01340000000000000001",
  banco: "0134",
  identificacion: "J-070133805"
}

const saldo = async (banco: string, valor: string) =>
  (await get(`/admin/cuentas/${banco}/${valor}`)).body.saldo as number

const codigo = async (operacion_id: string, monto = 1000) => {
  const r = await post("/v1/c2p/codigo", { operacion_id, monto, pagador: PAGADOR, cobrador: COBRADOR })
  expect(r.body.estado).toBe("ENVIADO")
  return (await get(`/admin/codigos/0102/${PAGADOR.valor}`)).body.codigo as string
}

beforeAll(async () => {
  sim = await startBankSim({ port: 0 })
})
afterAll(() => sim.close())
beforeEach(async () => {
  await post("/admin/reiniciar", {})
  await post("/admin/config", { autoAbrir: false })
  await post("/admin/cuentas", {
    banco: "0102",
    numero: "01020000000000000001",
    telefono: "0414-1234567",
    identificacion: "V12345678",
    saldo: 50_000
  })
  await post("/admin/cuentas", {
    banco: "0134",
    numero: COBRADOR.valor,
    identificacion: "J070133805",
    saldo: 0
  })
})

describe("C2P debit", () => {
  it("debits the payer and credits the collector once with a valid code", async () => {
    const otp = await codigo("op-1")
    const r = await post("/v1/c2p/debito", {
      operacion_id: "op-2",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(r.body).toMatchObject({ estado: "APROBADA", codigo_respuesta: "00" })
    expect(r.body.referencia).toMatch(/^SIM/)
    expect(await saldo("0102", PAGADOR.valor)).toBe(49_000)
    expect(await saldo("0134", COBRADOR.valor)).toBe(1000)
  })

  it("the same operation id never debits twice, even when repeated concurrently", async () => {
    const otp = await codigo("op-1")
    const body = { operacion_id: "op-dup", monto: 1000, otp, pagador: PAGADOR, cobrador: COBRADOR }
    const answers = await Promise.all(Array.from({ length: 10 }, () => post("/v1/c2p/debito", body)))
    expect(new Set(answers.map((a) => a.body.referencia)).size).toBe(1)
    expect((await get("/admin/estado")).body.contadores.debitos_aplicados).toBe(1)
    expect(await saldo("0102", PAGADOR.valor)).toBe(49_000)
  })

  it("a wrong, used or expired code is OTP_INVALIDO (55) and moves nothing", async () => {
    const otp = await codigo("op-1")
    const wrong = await post("/v1/c2p/debito", {
      operacion_id: "a",
      monto: 1000,
      otp: "00000000",
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(wrong.body).toMatchObject({ estado: "RECHAZADA", codigo_respuesta: "55" })
    await post("/v1/c2p/debito", {
      operacion_id: "b",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    const used = await post("/v1/c2p/debito", {
      operacion_id: "c",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(used.body.codigo_respuesta).toBe("55")
    const otp2 = await codigo("op-3")
    await post("/admin/config", { relojDesfaseMs: 121_000 })
    const expired = await post("/v1/c2p/debito", {
      operacion_id: "d",
      monto: 1000,
      otp: otp2,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(expired.body.codigo_respuesta).toBe("55")
    expect(await saldo("0102", PAGADOR.valor)).toBe(49_000)
  })

  it("balance, limits, enrolment and identity are checked", async () => {
    const otp = await codigo("op-1", 60_000)
    const poor = await post("/v1/c2p/debito", {
      operacion_id: "x1",
      monto: 60_000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(poor.body.codigo_respuesta).toBe("51")
    await post("/admin/cuentas", {
      banco: "0102",
      numero: "01020000000000000001",
      identificacion: "V12345678",
      limite_diario: 500
    })
    const over = await post("/v1/c2p/debito", {
      operacion_id: "x2",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(over.body.codigo_respuesta).toBe("61")
    const stranger = await post("/v1/c2p/codigo", {
      operacion_id: "x3",
      monto: 100,
      pagador: { ...PAGADOR, identificacion: "V-999" },
      cobrador: COBRADOR
    })
    expect(stranger.body.codigo_respuesta).toBe("56")
    await post("/admin/cuentas", {
      banco: "0102",
      numero: "01020000000000000001",
      identificacion: "V12345678",
      afiliado_c2p: false
    })
    const notEnrolled = await post("/v1/c2p/codigo", {
      operacion_id: "x4",
      monto: 100,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(notEnrolled.body.codigo_respuesta).toBe("80")
    const unknown = await post("/v1/c2p/codigo", {
      operacion_id: "x5",
      monto: 100,
      pagador: { ...PAGADOR, valor: "04161111111" },
      cobrador: COBRADOR
    })
    expect(unknown.body.codigo_respuesta).toBe("14")
  })
})

describe("transfers, query, reversal", () => {
  const BENEF = { tipo: "telefono", valor: "04241112233", banco: "0105", identificacion: "V-5555555" }
  beforeEach(async () => {
    await post("/admin/cuentas", {
      banco: "0105",
      numero: "01050000000000000009",
      telefono: BENEF.valor,
      identificacion: "V5555555",
      saldo: 0
    })
  })

  it("pago_movil settles at once; credito_inmediato is EN_PROCESO until it confirms", async () => {
    const origen = {
      tipo: "cuenta",
      valor: "01020000000000000001",
      banco: "0102",
      identificacion: "V12345678"
    }
    const pm = await post("/v1/transferencias", {
      operacion_id: "t1",
      monto: 700,
      ordenante: origen,
      beneficiario: BENEF,
      via: "pago_movil"
    })
    expect(pm.body.estado).toBe("APROBADA")
    await post("/admin/config", { confirmacionCreditoMs: 200 })
    const ci = await post("/v1/transferencias", {
      operacion_id: "t2",
      monto: 300,
      ordenante: origen,
      beneficiario: BENEF,
      via: "credito_inmediato"
    })
    expect(ci.body.estado).toBe("EN_PROCESO")
    await new Promise((r) => setTimeout(r, 250))
    expect((await get("/v1/operaciones/t2")).body.estado).toBe("APROBADA")
    expect(await saldo("0105", BENEF.valor)).toBe(1000)
    expect((await get("/v1/operaciones/nunca")).status).toBe(404)
  })

  it("reversal returns the money where supported and is NO_SOPORTADO (40) elsewhere", async () => {
    const otp = await codigo("c1")
    await post("/v1/c2p/debito", {
      operacion_id: "d1",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    const rev = await post("/v1/reversos", { operacion_id: "r1", original_id: "d1", monto: 1000 })
    expect(rev.body.estado).toBe("APROBADA")
    expect(await saldo("0102", PAGADOR.valor)).toBe(50_000)
    await post("/admin/config", { bancosSinReverso: ["0102"] })
    const otp2 = await codigo("c2")
    await post("/v1/c2p/debito", {
      operacion_id: "d2",
      monto: 1000,
      otp: otp2,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    const no = await post("/v1/reversos", { operacion_id: "r2", original_id: "d2", monto: 1000 })
    expect(no.body).toMatchObject({ estado: "RECHAZADA", codigo_respuesta: "40" })
  })
})

describe("fault injection", () => {
  it("timeout after applying: the debit happens, no answer comes, a query tells the truth", async () => {
    const otp = await codigo("op-1")
    await post("/admin/fallas", { ruta: "debito", tipo: "timeout_tras_aplicar", ms: 300, veces: 1 })
    const failed = await fetch(`${sim.url}/v1/c2p/debito`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operacion_id: "lost", monto: 1000, otp, pagador: PAGADOR, cobrador: COBRADOR })
    }).then(
      () => "answered",
      () => "no answer"
    )
    expect(failed).toBe("no answer")
    expect((await get("/v1/operaciones/lost")).body.estado).toBe("APROBADA")
    expect(await saldo("0102", PAGADOR.valor)).toBe(49_000)
  })

  it("5xx answers without processing; a forced rejection is recorded; latency delays", async () => {
    await post("/admin/fallas", { fallas: [{ ruta: "codigo", tipo: "error_5xx", veces: 1 }] })
    const down = await post("/v1/c2p/codigo", {
      operacion_id: "f1",
      monto: 100,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(down.status).toBe(503)
    expect((await get("/v1/operaciones/f1")).status).toBe(404)
    await post("/admin/fallas", { ruta: "codigo", tipo: "rechazo", codigo: "96", veces: 1 })
    const refused = await post("/v1/c2p/codigo", {
      operacion_id: "f2",
      monto: 100,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(refused.body).toMatchObject({ estado: "RECHAZADA", codigo_respuesta: "96" })
    expect((await get("/v1/operaciones/f2")).body.codigo_respuesta).toBe("96")
    await post("/admin/fallas", { ruta: "consulta", tipo: "latencia", ms: 200, veces: 1 })
    const started = Date.now()
    await get("/v1/operaciones/f2")
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect((await get("/admin/estado")).body.contadores.solicitudes.codigo).toBe(2)
  })

  it("accepted then confirmed later", async () => {
    const otp = await codigo("op-1")
    await post("/admin/fallas", { ruta: "debito", tipo: "diferir", ms: 150, veces: 1 })
    const r = await post("/v1/c2p/debito", {
      operacion_id: "late",
      monto: 1000,
      otp,
      pagador: PAGADOR,
      cobrador: COBRADOR
    })
    expect(r.body.estado).toBe("EN_PROCESO")
    await new Promise((res) => setTimeout(res, 200))
    expect((await get("/v1/operaciones/late")).body.estado).toBe("APROBADA")
  })
})
