/**
 * Rules of SPEC that hold on the direct API too: money is received into (and paid out of) the
 * merchant's own accounts in live mode, a suspended merchant moves no new money, an
 * idempotency key answers only for its own operation, and a UUID key is one key in any case.
 */
import { randomUUID } from "node:crypto"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  COBRADOR,
  call,
  counters,
  type DirectRig,
  merchant,
  payer,
  simCall,
  startDirect,
  tokenBody
} from "../../test/directHarness.js"
import lowerKeys from "../migrations/0007_idempotency_lower.js"
import { PgLive } from "../platform/Sql.js"

let rig: DirectRig

beforeAll(async () => {
  rig = await startDirect()
})
afterAll(() => rig?.close())

const post = (key: string, path: string, body: unknown) =>
  call(rig.server.url, "POST", `/switch/v1${path}`, { key, body })

const STRANGER = {
  ...COBRADOR,
  valor: "01020000000000009999",
  banco: "0102",
  identificacion: "V-99999999",
  tipo_doc: "V"
}

describe("own accounts (live)", () => {
  it("a live code request or in-band collection into a stranger's account is refused, nothing asked of the bank", async () => {
    const m = await merchant(rig)
    const p = await payer(rig)
    const before = await counters(rig)
    const token = await post(m.live, "/cobrar/token", { ...tokenBody(p), cobrador: STRANGER })
    expect(token.status).toBe(400)
    expect(token.body.error).toBe("VALIDATION")
    expect(Object.keys(token.body.detail.fieldErrors)).toEqual(["cobrador.identificacion"])
    const inBand = await post(m.live, "/cobrar", { ...tokenBody(p), cobrador: STRANGER, otp: "12345678" })
    expect(inBand.status).toBe(400)
    expect(await counters(rig)).toEqual(before)
    // The merchant's own account (its RIF, written another way) is accepted.
    const own = await post(m.live, "/cobrar/token", {
      ...tokenBody(p),
      cobrador: { ...COBRADOR, identificacion: "J-07013380-5" }
    })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
  })

  it("a live payout from a stranger's account is refused", async () => {
    const m = await merchant(rig)
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { pagar_habilitado: true })
    const body = {
      idempotency_key: randomUUID(),
      monto: { valor: 5 },
      concepto: "Pago",
      ordenante: STRANGER,
      beneficiario: await payer(rig),
      via: "pago_movil"
    }
    const reply = await post(m.live, "/pagar", body)
    expect(reply.status).toBe(400)
    expect(Object.keys(reply.body.detail.fieldErrors)).toEqual(["ordenante.identificacion"])
    const batch = await post(m.live, "/dispersiones", {
      idempotency_key: randomUUID(),
      concepto: "Lote",
      ordenante: STRANGER,
      pagos: [{ beneficiario: body.beneficiario, monto: { valor: 1 } }]
    })
    expect(batch.status).toBe(400)
  })
})

describe("suspension", () => {
  it("a suspended merchant can neither request a code, collect in-band nor pay out (403 comercio_suspendido)", async () => {
    const m = await merchant(rig)
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { pagar_habilitado: true })
    const p = await payer(rig)
    const before = {
      idempotency_key: randomUUID(),
      monto: { valor: 5 },
      concepto: "Antes",
      ordenante: COBRADOR,
      beneficiario: p
    }
    const paid = await post(m.test, "/pagar", before)
    expect(paid.status).toBe(200)
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { estado: "suspendido" })
    // A payout made before the suspension still answers its original result.
    const replayed = await post(m.test, "/pagar", before)
    expect(replayed.status).toBe(200)
    expect(replayed.body.id).toBe(paid.body.id)
    for (const key of [m.test, m.live]) {
      const token = await post(key, "/cobrar/token", tokenBody(p))
      expect(token.status).toBe(403)
      expect(token.body.error).toBe("comercio_suspendido")
      expect((await post(key, "/cobrar", { ...tokenBody(p), otp: "12345678" })).body.error).toBe(
        "comercio_suspendido"
      )
      const pago = await post(key, "/pagar", {
        idempotency_key: randomUUID(),
        monto: { valor: 5 },
        concepto: "Pago",
        ordenante: COBRADOR,
        beneficiario: p
      })
      expect(pago.status).toBe(403)
      expect(pago.body.error).toBe("comercio_suspendido")
    }
  })
})

describe("idempotency keys", () => {
  it("a key used by a collection is refused by a payout and the other way round (409), never answered with the other's result", async () => {
    const m = await merchant(rig)
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { pagar_habilitado: true })
    const p = await payer(rig)
    const token = tokenBody(p)
    expect((await post(m.test, "/cobrar/token", token)).status).toBe(200)
    const pago = {
      idempotency_key: token.idempotency_key,
      monto: { valor: 5 },
      concepto: "Pago",
      ordenante: COBRADOR,
      beneficiario: p
    }
    const crossed = await post(m.test, "/pagar", pago)
    expect(crossed.status).toBe(409)
    expect(crossed.body.error).toBe("idempotency_key_en_uso")

    const payout = { ...pago, idempotency_key: randomUUID() }
    expect((await post(m.test, "/pagar", payout)).status).toBe(200)
    const collect = await post(m.test, "/cobrar", {
      ...tokenBody(p),
      idempotency_key: payout.idempotency_key,
      otp: "12345678"
    })
    expect(collect.status).toBe(409)
    expect(collect.body.error).toBe("idempotency_key_en_uso")
    const asToken = await post(m.test, "/cobrar/token", {
      ...tokenBody(p),
      idempotency_key: payout.idempotency_key
    })
    expect(asToken.status).toBe(409)
  })

  it("a reversal sent with a collection's key is refused (409), not answered with the collection", async () => {
    const m = await merchant(rig)
    const p = await payer(rig)
    const token = tokenBody(p)
    await post(m.test, "/cobrar/token", token)
    const charge = await post(m.test, "/cobrar", { ...token, otp: "12345678" })
    expect(charge.body.estado).toBe("LIQUIDADA")
    const reverso = await post(m.test, "/reverso", {
      idempotency_key: token.idempotency_key,
      id: charge.body.id
    })
    expect(reverso.status).toBe(409)
    expect(reverso.body.error).toBe("idempotency_key_en_uso")
  })

  it("keys stored in upper case before are lowered by the migration, unless another differs only by case", async () => {
    const m = await merchant(rig)
    const p = await payer(rig)
    const body = tokenBody(p)
    const first = await post(m.test, "/cobrar/token", body)
    const upper = body.idempotency_key.toUpperCase()
    await rig.db.query("update transacciones set idempotency_key = $2 where id = $1", [first.body.id, upper])
    const twins = [tokenBody(p), tokenBody(p)]
    const a = await post(m.test, "/cobrar/token", twins[0])
    const b = await post(m.test, "/cobrar/token", twins[1])
    const mixed = twins[0]?.idempotency_key.replace(/[a-f]/, (c) => c.toUpperCase()) ?? ""
    await rig.db.query("update transacciones set idempotency_key = $2 where id = $1", [a.body.id, mixed])
    await rig.db.query("update transacciones set idempotency_key = $2 where id = $1", [
      b.body.id,
      mixed.toUpperCase()
    ])
    const runtime = ManagedRuntime.make(
      PgLive(rig.server.databaseUrl, { maxConnections: 1 }).pipe(Layer.orDie)
    )
    await runtime.runPromise(lowerKeys)
    await runtime.dispose()
    const keyOf = async (id: string) =>
      (await rig.db.query("select idempotency_key from transacciones where id = $1", [id])).rows[0]
        .idempotency_key
    expect(await keyOf(first.body.id)).toBe(body.idempotency_key)
    expect(await keyOf(a.body.id)).toBe(mixed)
    expect(await keyOf(b.body.id)).toBe(mixed.toUpperCase())
    expect((await post(m.test, "/cobrar/token", body)).body.id).toBe(first.body.id)
  })

  it("the same UUID in upper case is the same operation", async () => {
    const m = await merchant(rig)
    const p = await payer(rig)
    const body = tokenBody(p)
    const first = await post(m.test, "/cobrar/token", body)
    const again = await post(m.test, "/cobrar/token", {
      ...body,
      idempotency_key: body.idempotency_key.toUpperCase()
    })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
    const rows = await rig.db.query(
      "select count(*)::int as n from transacciones where idempotency_key = $1",
      [body.idempotency_key]
    )
    expect(rows.rows[0].n).toBe(1)
  })
})

void simCall
