/**
 * The WhatsApp Flows data endpoint driven by a client that encrypts exactly as WhatsApp does
 * (a fresh RSA key pair per binding, RSA-OAEP-SHA256 + AES-128-GCM, inverted IV).
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  publicEncrypt,
  randomBytes
} from "node:crypto"
import { HttpServer } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approveMerchant,
  call,
  movedClock,
  registerMerchant,
  startServer,
  type TestServer,
  testSettings
} from "../../test/harness.js"
import { Settings } from "../Config.js"
import { HttpLive } from "../Http.js"
import { LiveBankLive } from "../platform/bank/HttpBank.js"
import { PgLive } from "../platform/Sql.js"

/** A second server on the same database whose clock stands still at `at` (23:50 Caracas here). */
const startAt = async (databaseUrl: string, at: Date): Promise<TestServer> => {
  const settings = testSettings()
  const runtime = ManagedRuntime.make(
    HttpLive({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(LiveBankLive),
      Layer.provide(PgLive(databaseUrl, { maxConnections: 5 })),
      Layer.provide(Layer.succeed(Settings, settings)),
      Layer.provide(movedClock(() => at.getTime())),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, databaseUrl, settings, close: () => runtime.dispose() }
}

const APP_SECRET = "app-secret-de-meta"
let server: TestServer
let liveKey: string
let testKey: string

const cuenta = {
  tipo: "cuenta",
  valor: "01050194651194079423",
  banco: "0105",
  identificacion: "J070133805",
  tipo_doc: "J",
  nombre: "Tienda"
}

beforeAll(async () => {
  server = await startServer()
  const merchant = await registerMerchant(server.url)
  testKey = merchant.key
  liveKey = await approveMerchant(server, merchant.codigo)
})
afterAll(() => server.close())

const bind = async (base: TestServer, key: string, extra: Record<string, unknown> = {}) => {
  const reply = await call(base.url, "POST", "/switch/v1/flow/config", {
    key,
    body: { cuenta, app_secret: APP_SECRET, concepto: "Pedido por WhatsApp", mode: "test", ...extra }
  })
  expect(reply.status).toBe(201)
  return reply.body as {
    flow_id: string
    flow_secret: string
    public_key: string
    monto_secret: string | null
  }
}

/** One request as WhatsApp sends it; returns the HTTP status and the decrypted answer. */
const send = async (
  base: TestServer,
  binding: { flow_id: string; public_key: string },
  payload: unknown,
  options: { tamper?: boolean; signature?: string; headers?: Record<string, string> } = {}
) => {
  const aesKey = randomBytes(16)
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-128-gcm", aesKey, iv)
  const data = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final(), cipher.getAuthTag()])
  if (options.tamper) data[data.length - 1] = (data[data.length - 1] ?? 0) ^ 0xff
  const body = JSON.stringify({
    encrypted_flow_data: data.toString("base64"),
    encrypted_aes_key: publicEncrypt(
      { key: binding.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      aesKey
    ).toString("base64"),
    initial_vector: iv.toString("base64")
  })
  const signature =
    options.signature ?? `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}`
  const response = await fetch(`${base.url}/switch/v1/flows/cobro/${binding.flow_id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signature, ...options.headers },
    body
  })
  const text = await response.text()
  if (response.status !== 200) return { status: response.status, answer: null as any, text }
  expect(response.headers.get("content-type")).toContain("text/plain")
  const sealed = Buffer.from(text, "base64")
  const decipher = createDecipheriv("aes-128-gcm", aesKey, Buffer.from(iv.map((b) => ~b & 0xff)))
  decipher.setAuthTag(sealed.subarray(sealed.length - 16))
  const clear = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()])
  return { status: 200, answer: JSON.parse(clear.toString()) as any, text }
}

const payer = { banco: "0134", telefono: "04141234567", tipo_doc: "V", cedula: "12345678" }

describe("WhatsApp Flows data endpoint", () => {
  it("setup needs a live key and stores the Flow JSON", async () => {
    const refused = await call(server.url, "POST", "/switch/v1/flow/config", {
      key: testKey,
      body: { cuenta, app_secret: APP_SECRET }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("requiere_llave_live")
    const binding = await bind(server, liveKey)
    expect(binding.public_key).toContain("BEGIN PUBLIC KEY")
    const definicion = await call(server.url, "PUT", "/switch/v1/flows/definicion", {
      key: liveKey,
      body: { flow_id: binding.flow_id }
    })
    expect(definicion.status).toBe(200)
    expect(definicion.body.definicion.screens.map((s: { id: string }) => s.id)).toEqual([
      "DATOS",
      "CODIGO",
      "EXITO"
    ])
  })

  it("drives a whole flow to a paid test collection, idempotent per flow_token", async () => {
    const binding = await bind(server, liveKey)
    const token = `${binding.flow_secret}~orden-1`
    expect((await send(server, binding, { version: "3.0", action: "ping" })).answer).toEqual({
      data: { status: "active" }
    })
    const init = await send(server, binding, { version: "3.0", action: "INIT", flow_token: token })
    expect(init.answer.screen).toBe("DATOS")
    expect(init.answer.data.bancos).toContainEqual({ id: "0134", title: "Banesco" })
    const code = await send(server, binding, {
      version: "3.0",
      action: "data_exchange",
      screen: "DATOS",
      flow_token: token,
      data: { accion: "REQUEST_TOKEN", ...payer, monto: 50 }
    })
    expect(code.answer.screen).toBe("CODIGO")
    const confirm = {
      version: "3.0",
      action: "data_exchange",
      screen: "CODIGO",
      flow_token: token,
      data: { accion: "CONFIRM_PAYMENT", otp: "12345678", monto: 50 }
    }
    const paid = await send(server, binding, confirm)
    expect(paid.answer.screen).toBe("EXITO")
    const again = await send(server, binding, confirm)
    expect(again.answer.screen).toBe("EXITO")
    const txns = await call(server.url, "GET", "/switch/v1/transacciones", { key: testKey })
    const cobros = txns.body.filter(
      (t: { operacion: string; monto: number }) => t.operacion === "cobro" && t.monto === 50
    )
    expect(cobros).toHaveLength(1)
    expect(cobros[0].estado).toBe("LIQUIDADA")
    // An error notification from WhatsApp is acknowledged.
    const ack = await send(server, binding, {
      version: "3.0",
      action: "data_exchange",
      flow_token: token,
      data: { error: "x", error_message: "y" }
    })
    expect(ack.answer).toEqual({ data: { acknowledged: true } })
  })

  it("answers 432 for a missing or wrong signature, 421 for a tampered tag, 400 for a malformed envelope", async () => {
    const binding = await bind(server, liveKey)
    const ping = { version: "3.0", action: "ping" }
    expect((await send(server, binding, ping, { signature: "sha256=00" })).status).toBe(432)
    expect((await send(server, binding, ping, { signature: `sha256=${"0".repeat(64)}` })).status).toBe(432)
    expect((await send(server, binding, ping, { tamper: true })).status).toBe(421)
    const body = JSON.stringify({ encrypted_flow_data: "abc" })
    const response = await fetch(`${server.url}/switch/v1/flows/cobro/${binding.flow_id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(body).digest("hex")}`
      },
      body
    })
    expect(response.status).toBe(400)
    expect(
      (
        await call(server.url, "POST", "/switch/v1/flows/cobro/00000000-0000-0000-0000-000000000000", {
          body: {}
        })
      ).status
    ).toBe(404)
  })

  it("takes flow_secret from x-flow-secret or the token prefix and refuses a wrong one", async () => {
    const binding = await bind(server, liveKey)
    const wrong = await send(server, binding, {
      version: "3.0",
      action: "INIT",
      flow_token: "otro-secreto-largo~orden-2"
    })
    expect(wrong.status).toBe(401)
    const header = await send(
      server,
      binding,
      { version: "3.0", action: "INIT", flow_token: "orden-2" },
      {
        headers: { "x-flow-secret": binding.flow_secret }
      }
    )
    expect(header.answer.screen).toBe("DATOS")
  })

  it("keeps the binding's private key and secrets sealed at rest, and still answers with them", async () => {
    const signed = await bind(server, liveKey, { monto_firmado: true })
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    const { rows } = await db
      .query("select private_key, app_secret, monto_secret from flow_bindings where id = $1", [
        signed.flow_id
      ])
      .finally(() => db.end())
    const row = rows[0]
    for (const value of [row.private_key, row.app_secret, row.monto_secret]) expect(value).toMatch(/^v1:/)
    expect(row.app_secret).not.toContain(APP_SECRET)
    expect(row.monto_secret).not.toContain(signed.monto_secret)
    expect(JSON.stringify(row)).not.toContain("PRIVATE KEY")
    const ping = await send(server, signed, { version: "3.0", action: "ping" })
    expect(ping.status).toBe(200)
    expect(ping.answer).toEqual({ data: { status: "active" } })
  })

  it("a fixed-amount binding refuses another amount; signed mode wants a valid signature", async () => {
    const fixed = await bind(server, liveKey, { monto_fijo: 25 })
    const mismatch = await send(server, fixed, {
      version: "3.0",
      action: "data_exchange",
      flow_token: `${fixed.flow_secret}~orden-3`,
      data: { accion: "REQUEST_TOKEN", ...payer, monto: 30 }
    })
    expect(mismatch.answer.screen).toBe("DATOS")
    expect(mismatch.answer.data.error_message).toContain("no coincide")
    const signed = await bind(server, liveKey, { monto_firmado: true })
    const secret = signed.monto_secret ?? ""
    const firma = createHmac("sha256", secret).update("orden-4~80.00").digest("hex")
    const ok = await send(server, signed, {
      version: "3.0",
      action: "data_exchange",
      flow_token: `${signed.flow_secret}~orden-4~80.00~${firma}`,
      data: { accion: "REQUEST_TOKEN", ...payer }
    })
    expect(ok.answer.screen).toBe("CODIGO")
    const forged = await send(server, signed, {
      version: "3.0",
      action: "data_exchange",
      flow_token: `${signed.flow_secret}~orden-4~1.00~${firma}`,
      data: { accion: "REQUEST_TOKEN", ...payer }
    })
    expect(forged.answer.screen).toBe("DATOS")
    expect(forged.answer.data.error_message).toContain("firmado")
  })

  it("during the bank close a live flow returns the data screen with the close message and asks no bank", async () => {
    const closed = await startAt(server.databaseUrl, new Date("2026-11-21T03:50:00Z"))
    try {
      const binding = await bind(closed, liveKey, { mode: "live" })
      const answer = await send(closed, binding, {
        version: "3.0",
        action: "data_exchange",
        flow_token: `${binding.flow_secret}~orden-5`,
        data: { accion: "REQUEST_TOKEN", ...payer, monto: 10 }
      })
      expect(answer.answer.screen).toBe("DATOS")
      expect(answer.answer.data.error_message).toContain("cierre")
    } finally {
      await closed.close()
    }
  })
})
