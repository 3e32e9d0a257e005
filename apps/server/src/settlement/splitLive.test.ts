/**
 * The split pilot in live mode end to end (issue 42), against the real bank simulator over HTTP:
 * creation checks (approved accounts, blocked accounts, the daily cap per beneficiary, `503
 * split_no_disponible_ahora` when the accounts cannot be checked), each part paid through the bank
 * under its own id after the payer's payment is confirmed, a part the bank rejects or does not
 * answer in review while the others are paid, an operator's four-eyes payment of a part the bank
 * never received, an account removed after creation never paid, the merchant's part credited and
 * `link.acreditado` sent only when the whole split finished, and accounts masked in the link.
 */
import { randomUUID } from "node:crypto"
import { Venezuela } from "@switch/core"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  call,
  codeFor,
  counters,
  type DirectRig,
  payer,
  simCall,
  startDirect
} from "../../test/directHarness.js"
import { approveMerchant, freshAddress, verifyEmail } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { signInOwner } from "../../test/ownerSession.js"
import { totpCode, totpStep } from "../platform/Totp.js"

let rig: DirectRig

beforeAll(async () => {
  // Each payer pays from an address of its own (live code requests are limited per address).
  rig = await startDirect({ webhookBackoffEscala: 0.02, proxiesConfiables: ["127.0.0.1"] })
})
afterAll(() => rig?.close())

const PASSWORD = "clave-del-dueno-larga"
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const eventually = async <T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  ms = 20_000
) => {
  const end = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > end) throw new Error(`not in ${ms} ms: ${what}`)
    await sleep(150)
  }
}

let seq = Math.floor(Math.random() * 1_000_000)

/** A beneficiary account at `banco`, opened at the simulator with a zero balance. */
const beneficiary = async (banco: string, options: { aceptaCredito?: boolean } = {}) => {
  const numero = String(++seq).padStart(10, "0")
  const valor = `${banco}0194${Option.getOrThrow(Venezuela.accountCheckDigits(banco, "0194", numero))}${numero}`
  const opened = await simCall(rig, "POST", "/admin/cuentas", {
    banco,
    numero: valor,
    identificacion: "V12345678",
    saldo: 0,
    acepta_credito: options.aceptaCredito ?? true
  })
  expect(opened.status).toBeLessThan(300)
  return { tipo: "cuenta", valor, banco, identificacion: "V-12345678", nombre: `Beneficiario ${seq}` }
}

type Cuenta = Awaited<ReturnType<typeof beneficiary>>

const balance = async (c: Cuenta) =>
  (await simCall(rig, "GET", `/admin/cuentas/${c.banco}/${c.valor}`)).body.saldo

/** A live merchant with the pilot, immediate settlement, an owner signed in and `cuentas` approved. */
const merchant = async (cuentas: ReadonlyArray<Cuenta>, patch: Record<string, unknown> = {}) => {
  const codigo = `s${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(rig.server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const live = await approveMerchant(rig.server, codigo)
  // Live mode needs the owner's e-mail confirmed (issue 45).
  await verifyEmail(rig.server.url, email)
  const patched = await admin(rig, "PATCH", `/admin/v1/comercios/${codigo}`, {
    split_habilitado: true,
    liquidacion_inmediata: true,
    ...patch
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  for (const cuenta of cuentas) {
    const added = await admin(rig, "POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, cuenta)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
  }
  return { codigo, live, owner: await signInOwner(rig.server.url, email, PASSWORD) }
}

/** The owner's portal session in live mode (a second factor first, as the portal asks). */
const ownerLive = async (headers: Record<string, string>) => {
  const { secreto } = (await call(rig.server.url, "POST", "/switch/v1/sesion/totp", { headers })).body
  await call(rig.server.url, "POST", "/switch/v1/sesion/totp/confirmar", {
    headers,
    body: { codigo: totpCode(secreto, totpStep(Date.now())) }
  })
  const live = await call(rig.server.url, "POST", "/switch/v1/sesion/modo", {
    headers,
    body: { mode: "live" }
  })
  expect(live.status, JSON.stringify(live.body)).toBe(200)
  return headers
}

const createLink = (key: string, monto: number, split: ReadonlyArray<unknown>) =>
  call(rig.server.url, "POST", "/switch/v1/links", { key, body: { monto, concepto: "Con reparto", split } })

/** The payer pays the link on its page, through the simulator's C2P debit. */
const pay = async (linkId: string, monto: number) => {
  const p = await payer(rig, 100_000_000)
  const page = await fetch(`${rig.server.url}/l/${linkId}`)
  const html = await page.text()
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const csrf = /<meta name="csrf" content="([^"]+)"/.exec(html)?.[1] ?? ""
  const headers = { cookie, "x-csrf": csrf, "x-forwarded-for": freshAddress() }
  const who = { banco: p.banco, tipo_doc: "V", identificacion: "12345678", telefono: p.valor }
  const asked = await call(rig.server.url, "POST", `/l/${linkId}/codigo`, { body: who, headers })
  expect(asked.status, JSON.stringify(asked.body)).toBe(200)
  const otp = await codeFor(rig, p)
  const paid = await call(rig.server.url, "POST", `/l/${linkId}/pagar`, { body: { ...who, otp }, headers })
  expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  expect(paid.body.estado).toBe("pagado")
  void monto
}

const linkOf = async (key: string, id: string) =>
  (await call(rig.server.url, "GET", `/switch/v1/links/${id}`, { key })).body

const acreditados = async (linkId: string) =>
  (
    await rig.db.query(
      "select data from eventos where evento = 'link.acreditado' and data->>'link_id' = $1",
      [linkId]
    )
  ).rows.map((r) => r.data)

const repartoIs = (key: string, id: string, estado: string) =>
  eventually(`reparto ${estado}`, async () => {
    const link = await linkOf(key, id)
    return link.reparto?.estado === estado ? link : null
  })

/** An operator with role `rol`, signed in (its session's headers). */
const operator = (rol: string) =>
  signInOperator(rig.server.url, rol, { password: PASSWORD, checkCreated: true })

/** Two `tesoreria` operators: one asks, the other confirms (four eyes). */
const twoTesoreria = async () => {
  const tesoreria = await operator("tesoreria")
  const segundo = await operator("tesoreria")
  return { tesoreria, segundo }
}

/** The console's review queue as `headers`' operator sees it. */
const reviewQueue = async (headers: Record<string, string>) =>
  (await call(rig.server.url, "GET", "/admin/v1/operador/revision", { headers })).body.data as Array<any>

/** `asker` asks for `path` with `body`; if it needs a second operator (202), `confirmer` confirms. */
const withFourEyes = async (
  path: string,
  body: Record<string, unknown>,
  asker: Record<string, string>,
  confirmer: Record<string, string>
) => {
  const asked = await call(rig.server.url, "POST", path, { headers: asker, body })
  expect([200, 202], JSON.stringify(asked.body)).toContain(asked.status)
  if (asked.status === 202) {
    const confirmed = await call(rig.server.url, "POST", `${path}/confirmar`, {
      headers: confirmer,
      body: {}
    })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
  }
}

describe("creating a live link with a split", () => {
  it("is accepted with approved accounts; the link shows every account masked", async () => {
    const a = await beneficiary("0105")
    const m = await merchant([a])
    const created = await createLink(m.live, 100, [{ cuenta: a, porcentaje: 10 }])
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.split).toEqual([
      {
        cuenta: { banco: "0105", tipo: "cuenta", ultimos4: a.valor.slice(-4), nombre: a.nombre },
        porcentaje: 10
      }
    ])
    const text = JSON.stringify(await linkOf(m.live, created.body.id))
    expect(text).not.toContain(a.valor)
    expect(text).not.toContain("12345678")
  })

  it("an account not approved is 400 split_cuenta_no_preaprobada naming its index; a blocked one split_beneficiario_bloqueado", async () => {
    const a = await beneficiary("0105")
    const b = await beneficiary("0105")
    const m = await merchant([a, b])
    const other = await beneficiary("0105")
    const refused = await createLink(m.live, 100, [
      { cuenta: a, porcentaje: 10 },
      { cuenta: other, porcentaje: 10 }
    ])
    expect([refused.status, refused.body.error]).toEqual([400, "split_cuenta_no_preaprobada"])
    expect(refused.body.detail).toContain("split[1]")
    await rig.db.query("insert into cuentas_bloqueadas (clave, motivo) values ($1, 'prueba')", [
      `c-${b.banco}-${b.valor}`
    ])
    const blocked = await createLink(m.live, 100, [
      { cuenta: a, porcentaje: 10 },
      { cuenta: b, porcentaje: 10 }
    ])
    expect([blocked.status, blocked.body.error]).toEqual([400, "split_beneficiario_bloqueado"])
    expect(blocked.body.detail).toContain("split[1]")
    expect((await call(rig.server.url, "GET", "/switch/v1/links", { key: m.live })).body).toEqual([])
  })

  it("when the accounts cannot be checked the answer is 503 split_no_disponible_ahora and nothing is created", async () => {
    const a = await beneficiary("0105")
    const m = await merchant([a])
    await rig.db.query("alter table cuentas_bloqueadas rename to cuentas_bloqueadas_fuera")
    try {
      const reply = await createLink(m.live, 100, [{ cuenta: a, porcentaje: 10 }])
      expect([reply.status, reply.body.error]).toEqual([503, "split_no_disponible_ahora"])
    } finally {
      await rig.db.query("alter table cuentas_bloqueadas_fuera rename to cuentas_bloqueadas")
    }
    expect((await call(rig.server.url, "GET", "/switch/v1/links", { key: m.live })).body).toEqual([])
    expect((await createLink(m.live, 100, [{ cuenta: a, porcentaje: 10 }])).status).toBe(201)
  })
})

describe("a paid live link's split", () => {
  it("3 ways (a percentage, a fixed amount, a share under a cent): each part paid once under its own id, then the merchant's part and one link.acreditado", async () => {
    const [a, b, c] = [await beneficiary("0105"), await beneficiary("0108"), await beneficiary("0114")]
    const m = await merchant([a, b, c])
    // Net of 100.00 at 1 %: 99.00. 33.33 % → 32.99 (32.9967 rounded down); 25.00 fixed; 0.01 % → sin_monto.
    const created = await createLink(m.live, 100, [
      { cuenta: a, porcentaje: 33.33 },
      { cuenta: b, monto: 25 },
      { cuenta: c, porcentaje: 0.01 }
    ])
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const before = await counters(rig)
    await pay(created.body.id, 100)
    const link = await repartoIs(m.live, created.body.id, "repartido")
    expect(link.reparto).toMatchObject({ estado: "repartido", monto_repartido: 57.99, monto_comercio: 41.01 })
    expect(link.reparto.beneficiarios.map((p: any) => [p.monto, p.estado])).toEqual([
      [32.99, "pagado"],
      [25, "pagado"],
      [0, "sin_monto"]
    ])
    const [pa, pb] = link.reparto.beneficiarios
    expect(pa.liquidacion_txn_id).not.toBe(pb.liquidacion_txn_id)
    expect(pa.referencia_bancaria).toEqual(expect.any(String))
    expect(JSON.stringify(link)).not.toContain(a.valor)

    const event = await eventually("link.acreditado", async () => (await acreditados(created.body.id))[0])
    expect(event.monto_acreditado).toBe(41.01)
    expect(event.reparto).toEqual(link.reparto)
    const liquidacion = (
      await rig.db.query(
        "select id::text, monto::int, estado from transacciones where link_id = $1 and operacion = 'liquidacion'",
        [created.body.id]
      )
    ).rows
    expect(liquidacion).toEqual([{ id: event.liquidacion_txn_id, monto: 4101, estado: "LIQUIDADA" }])
    // The simulator's own books: each beneficiary credited once, the third nothing.
    expect([await balance(a), await balance(b), await balance(c)]).toEqual([3299, 2500, 0])
    const after = await counters(rig)
    expect(after.creditos_aplicados - before.creditos_aplicados).toBe(3)
    await sleep(500)
    expect(await acreditados(created.body.id)).toHaveLength(1)
  })

  it("a part the bank rejects goes to review with its reason while the others are paid; no link.acreditado yet", async () => {
    const a = await beneficiary("0105")
    const refuses = await beneficiary("0108", { aceptaCredito: false })
    const m = await merchant([a, refuses])
    const created = await createLink(m.live, 50, [
      { cuenta: refuses, monto: 10 },
      { cuenta: a, monto: 10 }
    ])
    expect(created.status).toBe(201)
    await pay(created.body.id, 50)
    const link = await repartoIs(m.live, created.body.id, "en_revision")
    await eventually("the other part paid", async () => {
      const l = await linkOf(m.live, created.body.id)
      return l.reparto.beneficiarios[1].estado === "pagado" ? l : null
    })
    expect(link.reparto.beneficiarios[0].estado).toBe("en_revision")
    expect(await balance(refuses)).toBe(0)
    expect(await balance(a)).toBe(1000)
    const ops = await operator("tesoreria")
    const queue = await reviewQueue(ops)
    const item = queue.find((i) => i.tipo === "reparto" && i.link_id === created.body.id)
    expect(item.motivo).toContain("CUENTA_NO_CREDITO")
    expect(await acreditados(created.body.id)).toEqual([])
  })

  it("a part with no bank answer goes to review, is asked again, and an operator pays it with four eyes once the bank says it never got it", async () => {
    const silent = await beneficiary("0114")
    const a = await beneficiary("0105")
    const m = await merchant([silent, a])
    const created = await createLink(m.live, 80, [
      { cuenta: silent, porcentaje: 50 },
      { cuenta: a, monto: 5 }
    ])
    expect(created.status).toBe(201)
    // Every transfer to bank 0114 answers 500 without moving money, and its queries 404.
    await simCall(rig, "POST", "/admin/fallas", {
      ruta: "transferencia",
      tipo: "error_5xx",
      banco: "0114",
      veces: 1
    })
    await pay(created.body.id, 80)
    await repartoIs(m.live, created.body.id, "en_revision")
    const { tesoreria, segundo } = await twoTesoreria()
    const base = `/admin/v1/operador/revision/repartos/${created.body.id}/0`
    // The reconciler asks again; after the abandonment window the order is taken as never received.
    await eventually(
      "the order failed",
      async () =>
        (
          await rig.db.query("select estado from pagos_reparto where link_id = $1 and indice = 0", [
            created.body.id
          ])
        ).rows[0]?.estado === "fallido",
      20_000
    )
    const queue = await reviewQueue(tesoreria)
    expect(queue.find((i) => i.tipo === "reparto" && i.link_id === created.body.id)?.motivo).toContain(
      "nunca recibió"
    )
    const asked = await call(rig.server.url, "POST", `${base}/pagar`, {
      headers: tesoreria,
      body: { nota: "pagar" }
    })
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    const self = await call(rig.server.url, "POST", `${base}/pagar/confirmar`, { headers: tesoreria })
    expect(self.status).toBe(403)
    const confirmed = await call(rig.server.url, "POST", `${base}/pagar/confirmar`, { headers: segundo })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    // Crédito inmediato: the bank confirms it after a moment, and the reconciler asks about the
    // operator's order by itself (issue 45): nobody presses "Consultar".
    const done = await eventually("the part paid", async () => {
      const l = await linkOf(m.live, created.body.id)
      return l.reparto?.estado === "repartido" ? l : null
    })
    expect(done.reparto.beneficiarios[0].estado).toBe("pagado")
    expect(
      (
        await rig.db.query(
          "select estado from pagos_reparto where link_id = $1 and indice = 0 order by created_at",
          [created.body.id]
        )
      ).rows.map((r: { estado: string }) => r.estado)
    ).toEqual(["fallido", "pagado"])
    expect(await balance(silent)).toBe(3960)
    const event = await eventually("link.acreditado", async () => (await acreditados(created.body.id))[0])
    expect(event.monto_acreditado).toBe(79.2 - 39.6 - 5)
    expect(event.reparto.estado).toBe("repartido")
  })

  it("an account removed after the link was made is not paid: that part goes to review, the others are paid", async () => {
    const gone = await beneficiary("0105")
    const stays = await beneficiary("0108")
    const m = await merchant([gone, stays])
    const created = await createLink(m.live, 40, [
      { cuenta: gone, monto: 10 },
      { cuenta: stays, monto: 10 }
    ])
    expect(created.status).toBe(201)
    // Approved accounts have opaque ids: the owner finds it in the list.
    const list = await call(rig.server.url, "GET", "/switch/v1/cuentas-aprobadas", { headers: m.owner })
    const id = list.body.data.find(
      (c: { banco: string; valor: string; id: string }) => c.banco === gone.banco && c.valor === gone.valor
    )?.id
    const removed = await call(rig.server.url, "DELETE", `/switch/v1/cuentas-aprobadas/${id}`, {
      headers: m.owner
    })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    await pay(created.body.id, 40)
    const link = await eventually("the other part paid", async () => {
      const l = await linkOf(m.live, created.body.id)
      return l.reparto?.beneficiarios[1].estado === "pagado" ? l : null
    })
    expect(link.reparto.estado).toBe("en_revision")
    expect(link.reparto.beneficiarios[0]).toMatchObject({ estado: "en_revision", liquidacion_txn_id: null })
    expect(await balance(gone)).toBe(0)
    const orders = await rig.db.query(
      "select count(*)::int as n from pagos_reparto where link_id = $1 and indice = 0",
      [created.body.id]
    )
    expect(orders.rows[0].n).toBe(0)
  })

  it("the daily cap per beneficiary set by operators: refused at creation past it, and a second payment past it goes to review", async () => {
    const a = await beneficiary("0105")
    const m = await merchant([a], { tope_beneficiario_diario: 15 })
    const view = await admin(rig, "GET", `/admin/v1/comercios/${m.codigo}`)
    expect(view.body).toMatchObject({ tope_beneficiario_diario: 15, tope_beneficiario_diario_efectivo: 15 })
    const over = await createLink(m.live, 100, [{ cuenta: a, monto: 16 }])
    expect([over.status, over.body.error]).toEqual([400, "split_beneficiario_bloqueado"])
    const first = await createLink(m.live, 100, [{ cuenta: a, monto: 10 }])
    const second = await createLink(m.live, 100, [{ cuenta: a, monto: 10 }])
    expect([first.status, second.status]).toEqual([201, 201])
    await pay(first.body.id, 100)
    await repartoIs(m.live, first.body.id, "repartido")
    await pay(second.body.id, 100)
    const held = await repartoIs(m.live, second.body.id, "en_revision")
    expect(held.reparto.beneficiarios[0].estado).toBe("en_revision")
    expect(await balance(a)).toBe(1000)
    // With 10 paid today, a new link of 10 more is refused at creation.
    const third = await createLink(m.live, 100, [{ cuenta: a, monto: 10 }])
    expect([third.status, third.body.error]).toEqual([400, "split_beneficiario_bloqueado"])
  })

  it("a split link paid after riesgo turned immediate settlement off in the console (audited) goes to review instead of paying nobody", async () => {
    const a = await beneficiary("0105")
    const m = await merchant([a])
    const created = await createLink(m.live, 30, [{ cuenta: a, porcentaje: 50 }])
    expect(created.status).toBe(201)
    const path = `/admin/v1/operador/comercios/${m.codigo}`
    const soporte = await operator("soporte")
    expect(
      (
        await call(rig.server.url, "PATCH", path, {
          headers: soporte,
          body: { liquidacion_inmediata: false }
        })
      ).status
    ).toBe(403)
    const riesgo = await operator("riesgo")
    const off = await call(rig.server.url, "PATCH", path, {
      headers: riesgo,
      body: { liquidacion_inmediata: false, tope_beneficiario_diario: 1000, nota: "pausa" }
    })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect(off.body).toMatchObject({ liquidacion_inmediata: false, tope_beneficiario_diario: 1000 })
    const audit = await rig.db.query(
      "select antes, despues, nota from auditoria where objeto_id = $1 and accion = 'comercio.configurar'",
      [m.codigo]
    )
    expect(audit.rows).toHaveLength(1)
    expect(audit.rows[0]).toMatchObject({
      antes: { liquidacion_inmediata: true, tope_beneficiario_diario: null },
      despues: { liquidacion_inmediata: false, tope_beneficiario_diario: 1000 },
      nota: "pausa"
    })
    await pay(created.body.id, 30)
    const link = await repartoIs(m.live, created.body.id, "en_revision")
    expect(link.reparto.beneficiarios[0].estado).toBe("en_revision")
    expect(await balance(a)).toBe(0)
  })
})

describe("a refunded link's held split (issue 42's refunds)", () => {
  it("closed by operators in review: cerrado, and no link.acreditado nor a settlement that reads as money credited to the merchant", async () => {
    const a = await beneficiary("0105")
    const b = await beneficiary("0108")
    const m = await merchant([a, b], { reembolsos_habilitado: true })
    const created = await createLink(m.live, 60, [
      { cuenta: a, porcentaje: 50 },
      { cuenta: b, monto: 10 }
    ])
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    // Immediate settlement off once the link was made: paid, every part goes to review, nobody paid.
    const off = await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { liquidacion_inmediata: false })
    expect(off.status).toBe(200)
    await pay(created.body.id, 60)
    await repartoIs(m.live, created.body.id, "en_revision")
    const refund = await call(rig.server.url, "POST", `/switch/v1/links/${created.body.id}/reembolsos`, {
      headers: await ownerLive(m.owner),
      body: { motivo: "Pedido cancelado", idempotency_key: randomUUID() }
    })
    expect(refund.status, JSON.stringify(refund.body)).toBe(201)
    const held = await rig.db.query("select 1 from repartos_detenidos where link_id = $1", [created.body.id])
    expect(held.rows).toHaveLength(1)
    const { tesoreria, segundo } = await twoTesoreria()
    for (const indice of [0, 1]) {
      const path = `/admin/v1/operador/revision/repartos/${created.body.id}/${indice}/cerrar`
      await withFourEyes(path, { nota: "El cobro se reembolsó al cliente" }, tesoreria, segundo)
    }
    const link = await repartoIs(m.live, created.body.id, "cerrado")
    expect(link.reparto.beneficiarios.map((p: any) => p.estado)).toEqual(["descartado", "descartado"])
    // Give any settlement job queued by the closing time to run.
    await sleep(1500)
    expect(await acreditados(created.body.id)).toEqual([])
    const liquidaciones = await rig.db.query(
      "select estado from transacciones where link_id = $1 and operacion = 'liquidacion'",
      [created.body.id]
    )
    expect(liquidaciones.rows).toEqual([])
    expect([await balance(a), await balance(b)]).toEqual([0, 0])
  })
})

describe("an operator's four-eyes payment of a part in review (SPEC: re-checked before paying each account)", () => {
  it("approval, security controls and the daily cap are checked again at confirmation: 409 with the reason, nothing sent, the part stays in review", async () => {
    const [a, b, c] = [await beneficiary("0105"), await beneficiary("0108"), await beneficiary("0105")]
    const m = await merchant([a, b, c], { tope_beneficiario_diario: 15 })
    const link = await createLink(m.live, 100, [
      { cuenta: a, monto: 10 },
      { cuenta: b, monto: 10 },
      { cuenta: c, monto: 10 }
    ])
    const other = await createLink(m.live, 100, [{ cuenta: c, monto: 10 }])
    expect([link.status, other.status]).toEqual([201, 201])
    const id = link.body.id
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { liquidacion_inmediata: false })
    await pay(id, 100)
    await repartoIs(m.live, id, "en_revision")
    const { tesoreria, segundo } = await twoTesoreria()
    const base = (indice: number) => `/admin/v1/operador/revision/repartos/${id}/${indice}`
    for (const indice of [0, 1, 2]) {
      const asked = await call(rig.server.url, "POST", `${base(indice)}/pagar`, {
        headers: tesoreria,
        body: { nota: "pagar" }
      })
      expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    }
    // Between the request and the confirmation: a blocks, b leaves the approved list, c is paid 10 by another link.
    await rig.db.query("insert into cuentas_bloqueadas (clave, motivo) values ($1, 'prueba')", [
      `c-${a.banco}-${a.valor}`
    ])
    const list = await call(rig.server.url, "GET", "/switch/v1/cuentas-aprobadas", { headers: m.owner })
    const bId = list.body.data.find((x: { valor: string }) => x.valor === b.valor)?.id
    expect(
      (await call(rig.server.url, "DELETE", `/switch/v1/cuentas-aprobadas/${bId}`, { headers: m.owner }))
        .status
    ).toBe(200)
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { liquidacion_inmediata: true })
    await pay(other.body.id, 100)
    await repartoIs(m.live, other.body.id, "repartido")
    expect(await balance(c)).toBe(1000)
    const before = await counters(rig)

    const expected: Array<[string, string]> = [
      ["split_beneficiario_bloqueado", "control de seguridad"],
      ["split_cuenta_no_preaprobada", "cuentas aprobadas"],
      ["split_beneficiario_bloqueado", "tope diario"]
    ]
    for (const [indice, [error, detail]] of expected.entries()) {
      const refused = await call(rig.server.url, "POST", `${base(indice)}/pagar/confirmar`, {
        headers: segundo
      })
      expect([refused.status, refused.body.error], JSON.stringify(refused.body)).toEqual([409, error])
      expect(refused.body.detail).toContain(detail)
    }
    expect((await counters(rig)).creditos_aplicados - before.creditos_aplicados).toBe(0)
    expect([await balance(a), await balance(b), await balance(c)]).toEqual([0, 0, 1000])
    const after = await linkOf(m.live, id)
    expect(after.reparto.estado).toBe("en_revision")
    expect(after.reparto.beneficiarios.map((p: any) => p.estado)).toEqual([
      "en_revision",
      "en_revision",
      "en_revision"
    ])
    const orders = await rig.db.query(
      "select indice, estado from pagos_reparto where link_id = $1 order by indice",
      [id]
    )
    expect(orders.rows).toEqual([
      { indice: 0, estado: "fallido" },
      { indice: 1, estado: "fallido" },
      { indice: 2, estado: "fallido" }
    ])
    const queue = await reviewQueue(tesoreria)
    expect(queue.find((i) => i.link_id === id && i.indice === 0)?.motivo ?? "").toContain(
      "control de seguridad"
    )
    const audit = await rig.db.query(
      "select count(*)::int as n from auditoria where accion = 'reparto.pagar_rechazado' and objeto_id like $1",
      [`${id}:%`]
    )
    expect(audit.rows[0].n).toBe(3)
    // Asked again now, the blocked account is refused at once; once unblocked it is paid.
    const again = await call(rig.server.url, "POST", `${base(0)}/pagar`, { headers: tesoreria, body: {} })
    expect([again.status, again.body.error]).toEqual([409, "split_beneficiario_bloqueado"])
    await rig.db.query("delete from cuentas_bloqueadas where clave = $1", [`c-${a.banco}-${a.valor}`])
    expect(
      (await call(rig.server.url, "POST", `${base(0)}/pagar`, { headers: tesoreria, body: {} })).status
    ).toBe(202)
    const paid = await call(rig.server.url, "POST", `${base(0)}/pagar/confirmar`, { headers: segundo })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  })
})

describe("GET /liquidaciones shows a split's payments without a settlement row", () => {
  it("a split that took the whole net (neto 0, LIQUIDADA, the payer's payment id) and one in review (REVISION)", async () => {
    const [a, b] = [await beneficiary("0105"), await beneficiary("0108")]
    const m = await merchant([a, b])
    const whole = await createLink(m.live, 50, [{ cuenta: a, porcentaje: 100 }])
    const review = await createLink(m.live, 40, [{ cuenta: b, monto: 10 }])
    expect([whole.status, review.status]).toEqual([201, 201])
    await pay(whole.body.id, 50)
    await repartoIs(m.live, whole.body.id, "repartido")
    await admin(rig, "PATCH", `/admin/v1/comercios/${m.codigo}`, { liquidacion_inmediata: false })
    await pay(review.body.id, 40)
    await repartoIs(m.live, review.body.id, "en_revision")
    const event = await eventually("link.acreditado", async () => (await acreditados(whole.body.id))[0])

    const list = await call(rig.server.url, "GET", "/switch/v1/liquidaciones", { key: m.live })
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    expect(list.body.map((l: any) => l.link_id)).toEqual([review.body.id, whole.body.id])
    const [inReview, took] = list.body
    expect(took).toMatchObject({
      id: event.liquidacion_txn_id,
      neto: 0,
      cobrado: 50,
      estado: "LIQUIDADA",
      mode: "live",
      reparto: { estado: "repartido", monto_comercio: 0, monto_repartido: 49.5 }
    })
    expect(took.reparto.beneficiarios[0]).toMatchObject({
      banco: "0105",
      ultimos4: a.valor.slice(-4),
      estado: "pagado",
      monto: 49.5
    })
    expect(took.liquidada_at).toEqual(expect.any(String))
    expect(inReview).toMatchObject({
      neto: 29.6,
      estado: "REVISION",
      liquidada_at: null,
      reparto: { estado: "en_revision", beneficiarios: [{ estado: "en_revision", monto: 10 }] }
    })
    expect(JSON.stringify(list.body)).not.toContain(a.valor)
    const filtered = await call(rig.server.url, "GET", "/switch/v1/liquidaciones?estado=REVISION", {
      key: m.live
    })
    expect(filtered.body.map((l: any) => l.link_id)).toEqual([review.body.id])
    const next = await call(rig.server.url, "GET", `/switch/v1/liquidaciones?starting_after=${inReview.id}`, {
      key: m.live
    })
    expect(next.body.map((l: any) => l.link_id)).toEqual([whole.body.id])
  })
})

describe("the merchant's part of a finished split in review", () => {
  it("resolved by an operator in the console: link.acreditado carries the reparto", async () => {
    const b = await beneficiary("0108")
    const m = await merchant([b])
    const created = await createLink(m.live, 40, [{ cuenta: b, monto: 10 }])
    expect(created.status).toBe(201)
    // The merchant's own account is at 0105 (the harness's): its credit answers 500 once.
    await simCall(rig, "POST", "/admin/fallas", {
      ruta: "transferencia",
      tipo: "error_5xx",
      banco: "0105",
      veces: 1
    })
    await pay(created.body.id, 40)
    await repartoIs(m.live, created.body.id, "repartido")
    const { tesoreria, segundo } = await twoTesoreria()
    const item = await eventually("the merchant's settlement in review", async () =>
      (await reviewQueue(tesoreria)).find((i) => i.tipo === "liquidacion" && i.link_id === created.body.id)
    )
    expect(item).toMatchObject({ monto: 29.6, con_reparto: false })
    expect(await acreditados(created.body.id)).toEqual([])
    const path = `/admin/v1/operador/revision/liquidaciones/${item.id}/marcar-pagada`
    await withFourEyes(path, { referencia_banco: "REF-12345", nota: "acreditado a mano" }, tesoreria, segundo)
    const event = await eventually("link.acreditado", async () => (await acreditados(created.body.id))[0])
    const link = await linkOf(m.live, created.body.id)
    expect(event).toMatchObject({ monto_acreditado: 29.6, liquidacion_txn_id: item.id, mode: "live" })
    expect(event.reparto).toEqual(link.reparto)
    expect(event.reparto.estado).toBe("repartido")
  })
})

describe("the block list in the console (cuentas_bloqueadas, riesgo only)", () => {
  it("riesgo lists, blocks and unblocks an account (audited); the split follows it; other roles are refused", async () => {
    const a = await beneficiary("0105")
    const m = await merchant([a])
    const base = "/admin/v1/operador/cuentas-bloqueadas"
    const riesgo = await operator("riesgo")
    const tesoreria = await operator("tesoreria")
    const clave = `c-${a.banco}-${a.valor}`
    for (const [method, path] of [
      ["GET", base],
      ["POST", base],
      ["POST", `${base}/${clave}/desbloquear`]
    ] as const) {
      const refused = await call(rig.server.url, method, path, {
        headers: tesoreria,
        ...(method === "GET" ? {} : { body: {} })
      })
      expect([refused.status, refused.body.error]).toEqual([403, "rol_insuficiente"])
    }
    const invalid = await call(rig.server.url, "POST", base, {
      headers: riesgo,
      body: { tipo: "cuenta", banco: a.banco, valor: a.valor }
    })
    expect(invalid.status).toBe(400)
    const blocked = await call(rig.server.url, "POST", base, {
      headers: riesgo,
      body: { tipo: "cuenta", banco: a.banco, valor: a.valor, motivo: "Fraude reportado" }
    })
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201)
    expect(blocked.body).toMatchObject({
      clave,
      tipo: "cuenta",
      banco: a.banco,
      valor: a.valor,
      motivo: "Fraude reportado"
    })
    const again = await call(rig.server.url, "POST", base, {
      headers: riesgo,
      body: { tipo: "cuenta", banco: a.banco, valor: a.valor, motivo: "Otra vez" }
    })
    expect([again.status, again.body.error]).toEqual([409, "cuenta_ya_bloqueada"])
    const list = await call(rig.server.url, "GET", base, { headers: riesgo })
    expect(list.status).toBe(200)
    expect(list.body.data.find((r: any) => r.clave === clave)).toMatchObject({ motivo: "Fraude reportado" })
    const refused = await createLink(m.live, 100, [{ cuenta: a, porcentaje: 10 }])
    expect([refused.status, refused.body.error]).toEqual([400, "split_beneficiario_bloqueado"])

    const unblocked = await call(rig.server.url, "POST", `${base}/${clave}/desbloquear`, {
      headers: riesgo,
      body: { nota: "Falsa alarma" }
    })
    expect(unblocked.status, JSON.stringify(unblocked.body)).toBe(200)
    expect(
      (await call(rig.server.url, "POST", `${base}/${clave}/desbloquear`, { headers: riesgo, body: {} }))
        .status
    ).toBe(404)
    expect(
      (await call(rig.server.url, "GET", base, { headers: riesgo })).body.data.map((r: any) => r.clave)
    ).not.toContain(clave)
    expect((await createLink(m.live, 100, [{ cuenta: a, porcentaje: 10 }])).status).toBe(201)
    const audit = await rig.db.query(
      "select accion, nota from auditoria where objeto_tipo = 'cuenta_bloqueada' and objeto_id = $1 order by id",
      [clave]
    )
    expect(audit.rows).toEqual([
      { accion: "cuenta_bloqueada.agregar", nota: "Fraude reportado" },
      { accion: "cuenta_bloqueada.quitar", nota: "Falsa alarma" }
    ])
  })
})
