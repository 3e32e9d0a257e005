/**
 * Contract tests: the adapter's requests against the playground's published request bodies
 * (apimercantil/api-playground: scp/modules/scp.js, c2p/modules/c2p.js,
 * search-c2p/modules/searchC2p.js), field by field, and the answers it reads from the
 * published answer shapes. The shapes below are the published field names, written out here.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { Ports } from "@switch/core"
import { Money } from "@switch/core"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claveDe, descifrar } from "./Cifrado.js"
import { bitacoraEnMemoria, makeMercantilBank } from "./Mercantil.js"

/** Field paths of each published request body. */
const PUBLICADO = {
  comunes: [
    "merchant_identify.integratorId",
    "merchant_identify.merchantId",
    "merchant_identify.terminalId",
    "client_identify.ipaddress",
    "client_identify.browser_agent",
    "client_identify.mobile.manufacturer"
  ],
  scp: ["transaction_scpInfo.destination_id", "transaction_scpInfo.destination_mobile_number"],
  c2p: [
    "transaction_c2p.amount",
    "transaction_c2p.currency",
    "transaction_c2p.destination_bank_id",
    "transaction_c2p.destination_id",
    "transaction_c2p.destination_mobile_number",
    "transaction_c2p.origin_mobile_number",
    "transaction_c2p.payment_reference",
    "transaction_c2p.trx_type",
    "transaction_c2p.payment_method",
    "transaction_c2p.invoice_number",
    "transaction_c2p.twofactor_auth"
  ],
  search: [
    "search_by.amount",
    "search_by.currency",
    "search_by.destination_mobile_number",
    "search_by.origin_mobile_number",
    "search_by.payment_reference",
    "search_by.trx_date"
  ]
}

const rutas = (v: unknown, prefijo = ""): Array<string> =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? Object.entries(v).flatMap(([k, x]) => rutas(x, prefijo === "" ? k : `${prefijo}.${k}`))
    : [prefijo]

const SECRETO = "secreto-de-prueba"
const clave = claveDe(SECRETO)
const credenciales = {
  integratorId: "31",
  merchantId: "200284",
  terminalId: "abcde",
  clientId: Redacted.make("client-id-de-prueba"),
  secreto: Redacted.make(SECRETO)
}

interface Recibida {
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: Record<string, Record<string, unknown>>
}
let recibidas: Array<Recibida> = []
let responder: (r: Recibida) => { status: number; body: unknown } | "colgar" = () => ({
  status: 200,
  body: {}
})
let server: Server
let url = ""

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const r = {
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString())
      }
      recibidas.push(r)
      const a = responder(r)
      if (a === "colgar") return
      res.writeHead(a.status, { "content-type": "application/json" })
      res.end(JSON.stringify(a.body))
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const address = server.address()
  url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/mercantil-banco/sandbox`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const pagador: Ports.Party = {
  tipo: "telefono",
  valor: "0414-1234567",
  banco: "0105",
  identificacion: "V-12.345.678",
  nombre: "Ana"
}
const comercio: Ports.Party = {
  tipo: "telefono",
  valor: "04241112233",
  banco: "0105",
  identificacion: "J-123456789",
  nombre: "Tienda"
}
const aprobada = (ref: string, invoice: string) => ({
  status: 200,
  body: {
    transaction_c2p_response: {
      amount: 12.34,
      currency: "ves",
      trx_status: "approved",
      payment_reference: ref,
      trx_internal_status: "0000",
      authorization_code: "654321",
      invoice_number: invoice,
      processing_date: "2026-11-29 10:00:00"
    }
  }
})

const banco = (timeoutMs = 2_000) =>
  makeMercantilBank({
    url,
    timeoutMs,
    credenciales,
    bitacora: bitacoraEnMemoria(),
    ahora: () => new Date("2026-11-29T14:00:00Z")
  })

describe("Mercantil adapter: requests as published", () => {
  it("a key request posts to /v1/mobile-payment/scp with the published fields, encrypted", async () => {
    recibidas = []
    responder = () => ({ status: 200, body: {} })
    const a = await Effect.runPromise(
      banco().requestCode({
        operacionId: "op_clave",
        monto: Money.Cents(1234),
        concepto: "x",
        cobrador: comercio,
        pagador
      })
    )
    expect(a.estado).toBe("ACEPTADA")
    const [r] = recibidas
    expect(r?.path).toBe("/mercantil-banco/sandbox/v1/mobile-payment/scp")
    expect(r?.headers["x-ibm-client-id"]).toBe("client-id-de-prueba")
    expect(rutas(r?.body).sort()).toEqual([...PUBLICADO.comunes, ...PUBLICADO.scp].sort())
    expect(r?.body.merchant_identify).toEqual({
      integratorId: "31",
      merchantId: "200284",
      terminalId: "abcde"
    })
    const info = r?.body.transaction_scpInfo ?? {}
    expect(descifrar(clave, String(info.destination_id))).toBe("V12345678")
    expect(descifrar(clave, String(info.destination_mobile_number))).toBe("584141234567")
  })

  it("a collect posts trx_type compra, c2p, the payer's bank, encrypted key; the secret never travels", async () => {
    recibidas = []
    responder = (r) => aprobada("000000000777", String(r.body.transaction_c2p?.invoice_number))
    const a = await Effect.runPromise(
      banco().debit({
        operacionId: "op_compra",
        monto: Money.Cents(1234),
        concepto: "x",
        cobrador: comercio,
        pagador: { ...pagador, banco: "0102" },
        otp: "00001111"
      })
    )
    expect(a).toMatchObject({ estado: "LIQUIDADA", referencia_banco: "000000000777" })
    const [r] = recibidas
    expect(r?.path).toBe("/mercantil-banco/sandbox/v1/payment/c2p")
    expect(rutas(r?.body).sort()).toEqual([...PUBLICADO.comunes, ...PUBLICADO.c2p].sort())
    const t = r?.body.transaction_c2p ?? {}
    expect(t).toMatchObject({
      amount: 12.34,
      currency: "ves",
      destination_bank_id: 102,
      trx_type: "compra",
      payment_method: "c2p",
      payment_reference: "",
      invoice_number: "op_compra"
    })
    expect(descifrar(clave, String(t.twofactor_auth))).toBe("00001111")
    expect(descifrar(clave, String(t.origin_mobile_number))).toBe("584241112233")
    expect(JSON.stringify(r?.body)).not.toContain(SECRETO)
    expect(JSON.stringify(r?.body)).not.toContain("00001111")
  })

  it("a reversal is an anulacion naming the purchase's reference; a payout is a vuelto by p2p", async () => {
    recibidas = []
    responder = (r) =>
      aprobada(
        `R-${String(r.body.transaction_c2p?.trx_type)}`,
        String(r.body.transaction_c2p?.invoice_number)
      )
    const b = banco()
    await Effect.runPromise(
      b.debit({
        operacionId: "op_c",
        monto: Money.Cents(500),
        concepto: "x",
        cobrador: comercio,
        pagador,
        otp: "1"
      })
    )
    const rev = await Effect.runPromise(
      b.reverse({ operacionId: "op_rev", originalId: "op_c", monto: Money.Cents(500), motivo: "x" })
    )
    expect(rev.estado).toBe("LIQUIDADA")
    const anulacion = recibidas[1]?.body.transaction_c2p ?? {}
    expect(anulacion).toMatchObject({
      trx_type: "anulacion",
      payment_method: "c2p",
      payment_reference: "R-compra",
      twofactor_auth: ""
    })
    const pago = await Effect.runPromise(
      b.credit({
        operacionId: "op_pago",
        monto: Money.Cents(700),
        concepto: "x",
        ordenante: comercio,
        beneficiario: { ...pagador, banco: "0134" },
        via: "pago_movil"
      })
    )
    expect(pago.estado).toBe("LIQUIDADA")
    const vuelto = recibidas[2]?.body.transaction_c2p ?? {}
    expect(vuelto).toMatchObject({
      trx_type: "vuelto",
      payment_method: "p2p",
      amount: 7,
      destination_bank_id: 134,
      twofactor_auth: ""
    })
    expect(rutas(recibidas[2]?.body).sort()).toEqual([...PUBLICADO.comunes, ...PUBLICADO.c2p].sort())
  })

  it("a collect with no answer is unclear and is settled by search, never sent again", async () => {
    recibidas = []
    responder = (r) => (r.path.endsWith("/v1/payment/c2p") ? "colgar" : { status: 200, body: {} })
    const b = banco(300)
    const a = await Effect.runPromise(
      b.debit({
        operacionId: "op_t",
        monto: Money.Cents(1234),
        concepto: "x",
        cobrador: comercio,
        pagador,
        otp: "1"
      })
    )
    expect(a.estado).toBe("DESCONOCIDA")
    responder = () => ({
      status: 200,
      body: { transaction_list: [aprobada("000000000888", "op_t").body.transaction_c2p_response] }
    })
    const q = await Effect.runPromise(b.query("op_t"))
    expect(q).toMatchObject({ estado: "LIQUIDADA", referencia_banco: "000000000888" })
    expect(recibidas.map((r) => r.path.replace(/^.*\/v1/, "/v1"))).toEqual([
      "/v1/payment/c2p",
      "/v1/mobile-payment/search"
    ])
    const s = recibidas[1]?.body ?? {}
    expect(rutas(s).sort()).toEqual([...PUBLICADO.comunes, ...PUBLICADO.search].sort())
    expect(s.search_by).toMatchObject({
      amount: 12.34,
      currency: "ves",
      payment_reference: "",
      trx_date: "2026-11-29"
    })
    expect(descifrar(clave, String(s.search_by?.destination_mobile_number))).toBe("584141234567")
  })

  it("an error list reaches the port as a rejection with SPEC's reason", async () => {
    responder = () => ({
      status: 400,
      body: { error_list: [{ error_code: "0051", description: "Saldo insuficiente" }] }
    })
    const a = await Effect.runPromise(
      banco().debit({
        operacionId: "op_e",
        monto: Money.Cents(1),
        concepto: "x",
        cobrador: comercio,
        pagador,
        otp: "1"
      })
    )
    expect(a).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "SALDO_INSUFICIENTE" })
  })
})
