/**
 * The queue's other sources (cola/): split parts `en_revision` (pay through the bank with four
 * eyes, mark paid with the bank's reference, close without paying; `link.acreditado` once when
 * the split finishes) and direct-API operations waiting for a person (`DESCONOCIDA`/`ERROR` past
 * the window, `SIN_DEBITO_EN_EXTRACTO`) with the `transaccion.*` notices after each resolution;
 * every item shows the bank's latest answer and keeps the history of them. Every amount here is
 * past SWITCH_CUATRO_OJOS_DESDE (10 Bs), so marking paid and closing take a second operator
 * (cuatroOjos.test.ts tests that rule on every source).
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beneficiary } from "../../test/accounts.js"
import { call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { query } from "../../test/webhooksReceiver.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de tesoreria"
let server: TestServer

beforeAll(async () => {
  server = await startServer({
    settings: { apiPorMinuto: 100_000, cuatroOjosDesde: 10, conciliarAbandonoSegundos: 3600 }
  })
}, 120_000)
afterAll(() => server?.close())

const db = <T = any>(text: string, values: Array<unknown> = []) => query<T>(server.databaseUrl, text, values)
const admin = (method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { ...(body === undefined ? {} : { body }), headers: TOKEN })

const signedIn = async (rol: string) => {
  const headers = await signInOperator(server.url, rol, { password: PASSWORD, checkCreated: false })
  return (method: string, path: string, body?: unknown) => call(server.url, method, path, { body, headers })
}

type Caller = Awaited<ReturnType<typeof signedIn>>

/**
 * A hand-recorded resolution from SWITCH_CUATRO_OJOS_DESDE (10 Bs here): `first` asks (202,
 * nothing moves), `second` confirms; the confirmation's answer.
 */
const withFourEyes = async (first: Caller, second: Caller, path: string, body: unknown) => {
  const asked = await first("POST", path, body)
  expect(asked.status, JSON.stringify(asked.body)).toBe(202)
  expect(asked.body.estado).toBe("pendiente_confirmacion")
  return second("POST", `${path}/confirmar`, {})
}

const events = (evento: string, field: string, id: string) =>
  db("select data from eventos where evento = $1 and data->>$2 = $3", [evento, field, id])

/** A paid test link whose split the net no longer covers: every part in review. */
const splitInReview = async (key: string, split: Array<unknown>) => {
  const created = await call(server.url, "POST", "/switch/v1/links", {
    key,
    body: { monto: 100, concepto: "Con reparto", split }
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.id as string
}

describe("split parts in review", () => {
  let linkA: string
  let linkB: string

  beforeAll(async () => {
    const m = await registerMerchant(server.url)
    expect(
      (
        await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, {
          split_habilitado: true,
          liquidacion_inmediata: true
        })
      ).status
    ).toBe(200)
    for (const n of [1, 2])
      await admin("POST", `/admin/v1/comercios/${m.codigo}/cuentas-aprobadas`, beneficiary(n))
    linkA = await splitInReview(m.key, [
      { cuenta: beneficiary(1), monto: 60 },
      { cuenta: beneficiary(2), monto: 38 }
    ])
    linkB = await splitInReview(m.key, [{ cuenta: beneficiary(1), monto: 98 }])
    // The commission goes up: the net (95) no longer covers 98, so paying puts the split in review.
    await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { comision_pct: 5 })
    for (const id of [linkA, linkB]) {
      const paid = await call(server.url, "POST", `/switch/v1/links/${id}/simular`, {
        key: m.key,
        body: { resultado: "pagado" }
      })
      expect(paid.status).toBe(200)
    }
  })

  it("the queue lists each part with its index, amount and no bank answer yet; soporte cannot act", async () => {
    const soporte = await signedIn("soporte")
    const queue = await soporte("GET", "/admin/v1/operador/revision")
    expect(queue.status).toBe(200)
    const parts = queue.body.data.filter((i: any) => i.tipo === "reparto")
    expect(parts.map((p: any) => [p.link_id, p.indice, p.monto]).sort()).toEqual(
      [
        [linkA, 0, 60],
        [linkA, 1, 38],
        [linkB, 0, 98]
      ].sort()
    )
    expect(parts[0]).toMatchObject({ con_reparto: true, mode: "test", ultima_respuesta: null })
    const refused = await soporte("POST", `/admin/v1/operador/revision/repartos/${linkA}/0/cerrar`, {
      nota: "no se paga"
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_insuficiente")
  })

  it("tesoreria marks one part paid, pays the other with four eyes (one order), and the split finishes with link.acreditado once", async () => {
    const first = await signedIn("tesoreria")
    const second = await signedIn("tesoreria")
    const base = `/admin/v1/operador/revision/repartos/${linkA}`

    expect((await first("POST", `${base}/0/marcar-pagada`, {})).status).toBe(400)
    const marked = await withFourEyes(first, second, `${base}/0/marcar-pagada`, {
      referencia_banco: "BANCO1234",
      nota: "visto en el extracto"
    })
    expect(marked.status, JSON.stringify(marked.body)).toBe(200)
    expect(marked.body.parte).toMatchObject({ estado: "pagado", referencia_bancaria: "BANCO1234", monto: 60 })
    expect(marked.body.reparto.estado).toBe("en_revision")
    expect((await first("POST", `${base}/0/cerrar`, { nota: "otra vez" })).body.error).toBe("no_en_revision")
    expect(await events("link.acreditado", "link_id", linkA)).toHaveLength(0)

    // Nothing sent yet: asking the bank has nothing to ask about.
    expect((await first("POST", `${base}/1/consultar`)).body.error).toBe("sin_orden")

    const asked = await first("POST", `${base}/1/pagar`, { nota: "cuenta confirmada" })
    expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    expect(asked.body.pago).toMatchObject({ estado: "pendiente", requiere_confirmacion: true })
    expect((await second("POST", `${base}/1/pagar`, {})).body.error).toBe("pago_en_curso")
    expect((await second("POST", `${base}/1/cerrar`, { nota: "mientras tanto" })).body.error).toBe(
      "pago_en_curso"
    )
    const alone = await first("POST", `${base}/1/pagar/confirmar`)
    expect(alone.status).toBe(403)
    expect(alone.body.error).toBe("cuatro_ojos")

    const confirmed = await second("POST", `${base}/1/pagar/confirmar`)
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body.pago).toMatchObject({ id: asked.body.pago.id, estado: "pagado" })
    expect(confirmed.body.banco.estado).toBe("LIQUIDADA")
    expect(confirmed.body.reparto).toMatchObject({ estado: "repartido", monto_repartido: 98 })
    expect((await second("POST", `${base}/1/pagar/confirmar`)).status).toBe(409)

    const notices = await events("link.acreditado", "link_id", linkA)
    expect(notices).toHaveLength(1)
    expect(notices[0].data.reparto).toMatchObject({ estado: "repartido", monto_repartido: 98 })
    const parts = await db<{ id: string; monto: number; referencia_banco: string }>(
      "select id::text, monto::int as monto, referencia_banco from transacciones where link_id = $1 and operacion = 'reparto' order by monto",
      [linkA]
    )
    expect(parts).toHaveLength(2)
    expect(parts[0]).toMatchObject({ monto: 3800, id: asked.body.pago.id })
    expect(parts[1]).toMatchObject({ monto: 6000, referencia_banco: "BANCO1234" })
    const [pago] = await db(
      "select estado, solicitado_por <> confirmado_por as cuatro_ojos from pagos_reparto"
    )
    expect(pago).toEqual({ estado: "pagado", cuatro_ojos: true })

    const history = await first(
      "GET",
      `/admin/v1/operador/revision/respuestas?objeto_tipo=reparto&objeto_id=${linkA}:1`
    )
    expect(history.status).toBe(200)
    expect(history.body.data).toHaveLength(1)
    expect(history.body.data[0]).toMatchObject({ estado: "LIQUIDADA", origen: "envio" })

    const audit = await db<{ accion: string; objeto_id: string }>(
      "select accion, objeto_id from auditoria where objeto_tipo = 'reparto' order by id"
    )
    expect(audit).toEqual([
      { accion: "reparto.marcar_pagada_solicitado", objeto_id: `${linkA}:0` },
      { accion: "reparto.marcar_pagada_confirmado", objeto_id: `${linkA}:0` },
      { accion: "reparto.pagar_solicitado", objeto_id: `${linkA}:1` },
      { accion: "reparto.pagar_confirmado", objeto_id: `${linkA}:1` },
      { accion: "reparto.pagar_enviado", objeto_id: `${linkA}:1` }
    ])
  })

  it("closing the only part without paying leaves the split cerrado, with link.acreditado once; the queue is empty of parts", async () => {
    const tesoreria = await signedIn("tesoreria")
    const segundo = await signedIn("tesoreria")
    const base = `/admin/v1/operador/revision/repartos/${linkB}/0`
    expect((await tesoreria("POST", `${base}/cerrar`, {})).status).toBe(400)
    const closed = await withFourEyes(tesoreria, segundo, `${base}/cerrar`, {
      nota: "el beneficiario renunció"
    })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body.parte.estado).toBe("descartado")
    expect(closed.body.reparto.estado).toBe("cerrado")
    const notices = await events("link.acreditado", "link_id", linkB)
    expect(notices).toHaveLength(1)
    expect(notices[0].data.reparto.estado).toBe("cerrado")
    expect(
      (await tesoreria("POST", `/admin/v1/operador/revision/repartos/${linkB}/4/cerrar`, { nota: "xyz" }))
        .status
    ).toBe(404)
    const queue = await tesoreria("GET", "/admin/v1/operador/revision")
    expect(queue.body.data.filter((i: any) => i.tipo === "reparto")).toEqual([])
    const link = await db("select reparto->>'estado' as estado from links where id = $1", [linkB])
    expect(link[0].estado).toBe("cerrado")
  })
})

describe("direct-API operations waiting for a person", () => {
  const ids = { unknown: randomUUID(), error: randomUUID(), sinDebito: randomUUID(), fresh: randomUUID() }

  beforeAll(async () => {
    const m = await registerMerchant(server.url)
    const comercio = (await admin("GET", `/admin/v1/comercios/${m.codigo}`)).body.id
    const insert = (id: string, operacion: string, estado: string, extra: string, hoursAgo: number) =>
      db(
        `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, concepto, idempotency_key,
           detalle, operacion_banco, fase, desconocida_desde, created_at, updated_at, motivo_rechazo, revision_desde)
         values ($1::uuid, $2, 'test', $3, $4::text, 12345, 'VES', 'Orden 7', $1::text, '{}'::jsonb, $1::text,
           'enviada', case when $4::text = 'DESCONOCIDA' then now() - make_interval(hours => $5::int) end,
           now() - make_interval(hours => $5::int), now(), ${extra})`,
        [id, comercio, operacion, estado, hoursAgo]
      )
    // A payout the bank could not be asked about (marked by the reconciler), a collection in ERROR
    // for two hours, a payout rejected as absent from the statement, and one still in its window.
    await insert(ids.unknown, "pago", "DESCONOCIDA", "null, now()", 5)
    await insert(ids.error, "cobro", "ERROR", "null, null", 2)
    await insert(ids.sinDebito, "pago", "RECHAZADA", "'SIN_DEBITO_EN_EXTRACTO', null", 3)
    await insert(ids.fresh, "pago", "DESCONOCIDA", "null, null", 0)
  })

  it("the queue lists the three that wait for a person, not the one in its window", async () => {
    const soporte = await signedIn("soporte")
    const queue = await soporte("GET", "/admin/v1/operador/revision")
    const items = queue.body.data.filter((i: any) => i.tipo === "transaccion")
    expect(items.map((i: any) => i.id).sort()).toEqual([ids.unknown, ids.error, ids.sinDebito].sort())
    expect(items.find((i: any) => i.id === ids.sinDebito)).toMatchObject({
      operacion: "pago",
      estado: "RECHAZADA",
      motivo: "SIN_DEBITO_EN_EXTRACTO",
      monto: 123.45
    })
    expect(
      (await soporte("POST", `/admin/v1/operador/revision/transacciones/${ids.error}/consultar`)).status
    ).toBe(403)
  })

  it("asking the bank records its answer and the notice; marking settled sends aprobada and liquidada; closing a SIN_DEBITO review sends nothing", async () => {
    const tesoreria = await signedIn("tesoreria")
    const segundo = await signedIn("tesoreria")
    const base = "/admin/v1/operador/revision/transacciones"

    // The sandbox bank never saw this order: RECHAZADA, with transaccion.rechazada once.
    const asked = await tesoreria("POST", `${base}/${ids.unknown}/consultar`)
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    expect(asked.body).toMatchObject({ estado: "RECHAZADA", banco: { estado: "RECHAZADA" } })
    expect(await events("transaccion.rechazada", "id", ids.unknown)).toHaveLength(1)
    expect((await tesoreria("POST", `${base}/${ids.unknown}/consultar`)).body.error).toBe("no_en_revision")
    const history = await tesoreria(
      "GET",
      `/admin/v1/operador/revision/respuestas?objeto_tipo=transaccion&objeto_id=${ids.unknown}`
    )
    expect(history.body.data).toEqual([expect.objectContaining({ estado: "RECHAZADA", origen: "operador" })])

    expect(
      (await tesoreria("POST", `${base}/${ids.error}/marcar-pagada`, { referencia_banco: "x" })).status
    ).toBe(400)
    const settled = await withFourEyes(tesoreria, segundo, `${base}/${ids.error}/marcar-pagada`, {
      referencia_banco: "REF-998877",
      nota: "aparece en el extracto"
    })
    expect(settled.status, JSON.stringify(settled.body)).toBe(200)
    expect(settled.body).toMatchObject({ estado: "LIQUIDADA", referencia_banco: "REF-998877" })
    const aprobada = await events("transaccion.aprobada", "id", ids.error)
    expect(aprobada).toHaveLength(1)
    expect(aprobada[0].data).toMatchObject({ estado: "LIQUIDADA", operacion: "cobro", monto: 123.45 })
    expect(await events("transaccion.liquidada", "id", ids.error)).toHaveLength(1)

    expect(
      (await tesoreria("POST", `${base}/${ids.sinDebito}/marcar-pagada`, { referencia_banco: "REF-1234" }))
        .body.error
    ).toBe("operacion_final")
    const closed = await withFourEyes(tesoreria, segundo, `${base}/${ids.sinDebito}/cerrar`, {
      nota: "no se reenvía"
    })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body.estado).toBe("RECHAZADA")
    expect(await db("select 1 from eventos where data->>'id' = $1", [ids.sinDebito])).toHaveLength(0)
    expect((await tesoreria("POST", `${base}/${ids.fresh}/cerrar`, { nota: "aún no" })).body.error).toBe(
      "no_en_revision"
    )

    const queue = await tesoreria("GET", "/admin/v1/operador/revision")
    expect(queue.body.data.filter((i: any) => i.tipo === "transaccion")).toEqual([])
    const audit = await db<{ accion: string }>(
      "select accion from auditoria where objeto_tipo = 'transaccion' order by id"
    )
    expect(audit.map((a) => a.accion)).toEqual([
      "transaccion.consultar_banco",
      "transaccion.marcar_liquidada_solicitado",
      "transaccion.marcar_liquidada_confirmado",
      "transaccion.cerrar_solicitado",
      "transaccion.cerrar_confirmado"
    ])
  })
})

describe("links in revision", () => {
  const links: Array<string> = []

  /** Two test links whose payment attempt the bank cannot tell about: in `revision`. */
  beforeAll(async () => {
    const m = await registerMerchant(server.url)
    const comercio = (await admin("GET", `/admin/v1/comercios/${m.codigo}`)).body.id
    for (let i = 0; i < 2; i++) {
      const created = await call(server.url, "POST", "/switch/v1/links", {
        key: m.key,
        body: { monto: 50, concepto: "En revisión" }
      })
      expect(created.status).toBe(201)
      const attempt = randomUUID()
      await db("update links set estado = 'revision' where id = $1", [created.body.id])
      await db(
        `insert into intentos_pago (id, link_id, comercio_id, mode, estado, created_at, actualizado_at, revision_desde)
         values ($1, $2, $3, 'test', 'DESCONOCIDA', now() - interval '2 hours', now(), now())`,
        [attempt, created.body.id, comercio]
      )
      // The bank knows the order but cannot say how it ended.
      await db("insert into banco_prueba (operacion_id, estado) values ($1, 'DESCONOCIDA')", [attempt])
      links.push(created.body.id)
    }
  })

  it("tesoreria asks the bank (kept in the history), marks one paid (link.pagado once) and closes the other (the link reopens)", async () => {
    const tesoreria = await signedIn("tesoreria")
    const segundo = await signedIn("tesoreria")
    const soporte = await signedIn("soporte")
    const [paid, closed] = links as [string, string]
    const base = "/admin/v1/operador/revision/links"
    expect((await soporte("POST", `${base}/${paid}/consultar`)).status).toBe(403)

    const asked = await tesoreria("POST", `${base}/${paid}/consultar`)
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    expect(asked.body).toMatchObject({ estado: "revision", banco: { estado: "DESCONOCIDA" } })
    const queue = await tesoreria("GET", "/admin/v1/operador/revision")
    const item = queue.body.data.find((i: any) => i.tipo === "link" && i.id === paid)
    expect(item.ultima_respuesta).toMatchObject({ estado: "DESCONOCIDA", origen: "operador" })

    expect((await tesoreria("POST", `${base}/${paid}/marcar-pagada`, {})).status).toBe(400)
    const marked = await withFourEyes(tesoreria, segundo, `${base}/${paid}/marcar-pagada`, {
      referencia_banco: "REF-445566",
      nota: "el banco lo confirmó por teléfono"
    })
    expect(marked.status, JSON.stringify(marked.body)).toBe(200)
    expect(marked.body.estado).toBe("pagado")
    expect(
      (await tesoreria("POST", `${base}/${paid}/marcar-pagada`, { referencia_banco: "REF-445566" })).body
        .error
    ).toBe("no_en_revision")
    const pagado = await events("link.pagado", "link_id", paid)
    expect(pagado).toHaveLength(1)
    const [link] = await db("select estado, referencia_banco from links where id = $1", [paid])
    expect(link.estado).toBe("pagado")

    const reopened = await withFourEyes(tesoreria, segundo, `${base}/${closed}/cerrar`, {
      nota: "no hubo débito"
    })
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200)
    expect(reopened.body.estado).toBe("pendiente")
    expect((await db("select estado from links where id = $1", [closed]))[0].estado).toBe("pendiente")
    expect(await events("link.pagado", "link_id", closed)).toHaveLength(0)

    const audit = await db<{ accion: string; objeto_id: string }>(
      "select accion, objeto_id from auditoria where objeto_tipo = 'link' order by id"
    )
    expect(audit).toEqual([
      { accion: "link.consultar_banco", objeto_id: paid },
      { accion: "link.marcar_pagado_solicitado", objeto_id: paid },
      { accion: "link.marcar_pagado_confirmado", objeto_id: paid },
      { accion: "link.cerrar_sin_cobro_solicitado", objeto_id: closed },
      { accion: "link.cerrar_sin_cobro_confirmado", objeto_id: closed }
    ])
    const after = await tesoreria("GET", "/admin/v1/operador/revision")
    expect(after.body.data.filter((i: any) => i.tipo === "link")).toEqual([])
  })
})
