/**
 * Four eyes on the hand-recorded resolutions of the review queue (issue 41), against the real
 * server: for every source (settlements, split parts, direct-API operations, links, portal
 * refunds) and both actions ("marcar pagado", "cerrar sin pagar"), an item from
 * SWITCH_CUATRO_OJOS_DESDE is only put on hold by the first `tesoreria` operator (`202`, nothing
 * moves, nothing else may be done to it), its requester and `soporte` cannot confirm it, and a
 * second `tesoreria` operator's confirmation applies exactly what was asked; both steps are
 * audited. Below the threshold one operator does it at once, as before. The cases are generated
 * from one table of sources, so a source added to the queue is added here once.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beneficiary } from "../../test/accounts.js"
import { call, type Reply, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { signInOperator } from "../../test/operatorSession.js"
import { query } from "../../test/webhooksReceiver.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de tesoreria"
/** SWITCH_CUATRO_OJOS_DESDE of this server, in bolivars. */
const UMBRAL = 100
let server: TestServer

beforeAll(async () => {
  server = await startServer({
    settings: { apiPorMinuto: 100_000, cuatroOjosDesde: UMBRAL, conciliarAbandonoSegundos: 3600 }
  })
}, 120_000)
afterAll(() => server?.close())

const db = <T = any>(text: string, values: Array<unknown> = []) => query<T>(server.databaseUrl, text, values)
const admin = (method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { ...(body === undefined ? {} : { body }), headers: TOKEN })

type Caller = ((method: string, path: string, body?: unknown) => Promise<Reply>) & {
  readonly email: string
}

const signedIn = async (rol: string): Promise<Caller> => {
  const headers = await signInOperator(server.url, rol, { password: PASSWORD, checkCreated: true })
  const email = (await call(server.url, "GET", "/admin/v1/operador/sesion", { headers })).body.operador.email
  const as = (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { headers, ...(body === undefined ? {} : { body }) })
  return Object.assign(as, { email })
}

/** A merchant and its id. */
const merchant = async () => {
  const m = await registerMerchant(server.url)
  const id = (await admin("GET", `/admin/v1/comercios/${m.codigo}`)).body.id as string
  return { ...m, id }
}

/** One item of a source waiting in the queue: its route, its key in the queue and its state now. */
interface Item {
  readonly base: string
  readonly tipo: string
  readonly id: string
  readonly estado: () => Promise<unknown>
}

interface Fuente {
  readonly tipo: string
  readonly auditoria: { readonly marcar_pagada: string; readonly cerrar: string }
  /** The state a confirmed action leaves, per action. */
  readonly despues: { readonly marcar_pagada: unknown; readonly cerrar: unknown }
  /** Makes an item of `monto` bolivars waiting for a person. */
  readonly crear: (monto: number) => Promise<Item>
  /** Another way to move money on this item, refused while a resolution waits. */
  readonly pagar?: boolean
}

const txnEstado = (id: string) => async () =>
  (await db("select estado from transacciones where id = $1", [id]))[0]?.estado

/** Rows of `transacciones` waiting for a person, as the sources find them. */
const insertTxn = async (input: {
  operacion: string
  estado: string
  monto: number
  detalle?: Record<string, unknown>
  fase?: string | null
  hoursAgo?: number
}) => {
  const m = await merchant()
  const id = randomUUID()
  await db(
    `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, concepto, idempotency_key,
       detalle, operacion_banco, fase, created_at, updated_at)
     values ($1::uuid, $2, 'test', $3, $4, $5, 'VES', 'Cuatro ojos', $1::text, $6::jsonb, $1::text, $7,
       now() - make_interval(hours => $8::int), now())`,
    [
      id,
      m.id,
      input.operacion,
      input.estado,
      Math.round(input.monto * 100),
      JSON.stringify(input.detalle ?? {}),
      input.fase ?? null,
      input.hoursAgo ?? 0
    ]
  )
  return id
}

/** Split parts: one merchant's links, each paid with a split its net no longer covers. */
let repartoMerchant: Awaited<ReturnType<typeof merchant>> | undefined
const splitPart = async (monto: number): Promise<Item> => {
  if (repartoMerchant === undefined) {
    repartoMerchant = await merchant()
    const codigo = repartoMerchant.codigo
    expect(
      (
        await admin("PATCH", `/admin/v1/comercios/${codigo}`, {
          split_habilitado: true,
          liquidacion_inmediata: true
        })
      ).status
    ).toBe(200)
    await admin("POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, beneficiary(1))
  }
  const m = repartoMerchant
  await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { comision_pct: null })
  const created = await call(server.url, "POST", "/switch/v1/links", {
    key: m.key,
    body: { monto: monto + 2, concepto: "Con reparto", split: [{ cuenta: beneficiary(1), monto }] }
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const linkId = created.body.id as string
  // The commission goes up: the net no longer covers the part, so paying puts it in review.
  await admin("PATCH", `/admin/v1/comercios/${m.codigo}`, { comision_pct: 5 })
  const paid = await call(server.url, "POST", `/switch/v1/links/${linkId}/simular`, {
    key: m.key,
    body: { resultado: "pagado" }
  })
  expect(paid.status).toBe(200)
  return {
    base: `/admin/v1/operador/revision/repartos/${linkId}/0`,
    tipo: "reparto",
    id: `${linkId}:0`,
    estado: async () =>
      (
        await db("select reparto->'beneficiarios'->0->>'estado' as estado from links where id = $1", [linkId])
      )[0]?.estado
  }
}

/** A test link whose payment attempt the bank cannot tell about: in `revision`. */
const linkInRevision = async (monto: number): Promise<Item> => {
  const m = await merchant()
  const created = await call(server.url, "POST", "/switch/v1/links", {
    key: m.key,
    body: { monto, concepto: "En revisión" }
  })
  expect(created.status).toBe(201)
  const id = created.body.id as string
  const attempt = randomUUID()
  await db("update links set estado = 'revision' where id = $1", [id])
  await db(
    `insert into intentos_pago (id, link_id, comercio_id, mode, estado, created_at, actualizado_at, revision_desde)
     values ($1, $2, $3, 'test', 'DESCONOCIDA', now() - interval '2 hours', now(), now())`,
    [attempt, id, m.id]
  )
  await db("insert into banco_prueba (operacion_id, estado) values ($1, 'DESCONOCIDA')", [attempt])
  return {
    base: `/admin/v1/operador/revision/links/${id}`,
    tipo: "link",
    id,
    estado: async () => (await db("select estado from links where id = $1", [id]))[0]?.estado
  }
}

const FUENTES: ReadonlyArray<Fuente> = [
  {
    tipo: "liquidacion",
    auditoria: { marcar_pagada: "liquidacion.marcar_pagada", cerrar: "liquidacion.cerrar_sin_pagar" },
    despues: { marcar_pagada: "LIQUIDADA", cerrar: "RECHAZADA" },
    pagar: true,
    crear: async (monto) => {
      const id = await insertTxn({ operacion: "liquidacion", estado: "REVISION", monto })
      return {
        base: `/admin/v1/operador/revision/liquidaciones/${id}`,
        tipo: "liquidacion",
        id,
        estado: txnEstado(id)
      }
    }
  },
  {
    tipo: "reparto",
    auditoria: { marcar_pagada: "reparto.marcar_pagada", cerrar: "reparto.cerrar_sin_pagar" },
    despues: { marcar_pagada: "pagado", cerrar: "descartado" },
    pagar: true,
    crear: splitPart
  },
  {
    tipo: "transaccion",
    auditoria: { marcar_pagada: "transaccion.marcar_liquidada", cerrar: "transaccion.cerrar" },
    despues: { marcar_pagada: "LIQUIDADA", cerrar: "RECHAZADA" },
    crear: async (monto) => {
      const id = await insertTxn({ operacion: "cobro", estado: "ERROR", monto, fase: "enviada", hoursAgo: 2 })
      return {
        base: `/admin/v1/operador/revision/transacciones/${id}`,
        tipo: "transaccion",
        id,
        estado: txnEstado(id)
      }
    }
  },
  {
    tipo: "link",
    auditoria: { marcar_pagada: "link.marcar_pagado", cerrar: "link.cerrar_sin_cobro" },
    despues: { marcar_pagada: "pagado", cerrar: "pendiente" },
    crear: linkInRevision
  },
  {
    tipo: "reembolso",
    auditoria: { marcar_pagada: "reembolso.marcar_pagado", cerrar: "reembolso.cerrar_sin_pagar" },
    despues: { marcar_pagada: "LIQUIDADA", cerrar: "RECHAZADA" },
    crear: async (monto) => {
      const id = await insertTxn({
        operacion: "devolucion",
        estado: "DESCONOCIDA",
        monto,
        fase: "enviada",
        detalle: { origen: "panel" }
      })
      return {
        base: `/admin/v1/operador/revision/reembolsos/${id}`,
        tipo: "reembolso",
        id,
        estado: txnEstado(id)
      }
    }
  }
]

const BODY = {
  marcar_pagada: { referencia_banco: "EXTRACTO-4477", nota: "visto en el extracto" },
  cerrar: { nota: "el banco no movió el dinero" }
} as const
const RUTA = { marcar_pagada: "marcar-pagada", cerrar: "cerrar" } as const
const OTRA = { marcar_pagada: "cerrar", cerrar: "marcar_pagada" } as const

const enCola = async (who: Caller, item: Item) =>
  ((await who("GET", "/admin/v1/operador/revision")).body.data as Array<any>).find(
    (i) => i.tipo === item.tipo && i.id === item.id
  )

const auditoria = (item: Item) =>
  db<{ accion: string; actor: string; nota: string | null; despues: any }>(
    "select accion, actor, nota, despues from auditoria where objeto_tipo = $1 and objeto_id = $2 and accion not like 'acceso.%' order by id",
    [item.tipo, item.id]
  )

describe("four eyes on marking paid and closing, for every source of the queue", () => {
  let first: Caller
  let second: Caller
  let soporte: Caller

  beforeAll(async () => {
    first = await signedIn("tesoreria")
    second = await signedIn("tesoreria")
    soporte = await signedIn("soporte")
  })

  for (const fuente of FUENTES)
    for (const accion of ["marcar_pagada", "cerrar"] as const)
      it(`${fuente.tipo}, ${accion}: from the threshold the first operator's request waits; only another operator applies it`, async () => {
        const item = await fuente.crear(UMBRAL + 23.45)
        const before = await item.estado()
        const path = `${item.base}/${RUTA[accion]}`

        // The request records a pending action and moves nothing.
        const asked = await first("POST", path, BODY[accion])
        expect(asked.status, JSON.stringify(asked.body)).toBe(202)
        expect(asked.body).toMatchObject({
          estado: "pendiente_confirmacion",
          objeto_tipo: fuente.tipo,
          objeto_id: item.id,
          accion_pendiente: { accion, monto: UMBRAL + 23.45, solicitado_por: first.email }
        })
        expect(await item.estado()).toEqual(before)
        const listed = await enCola(soporte, item)
        expect(listed?.accion_pendiente).toMatchObject({ accion, solicitado_por: first.email })

        // Nothing else is done to the item meanwhile, by anyone.
        for (const who of [first, second]) {
          expect((await who("POST", path, BODY[accion])).body.error).toBe("accion_pendiente")
          expect(
            (await who("POST", `${item.base}/${RUTA[OTRA[accion]]}`, BODY[OTRA[accion]])).body.error
          ).toBe("accion_pendiente")
        }
        if (fuente.pagar === true)
          expect((await second("POST", `${item.base}/pagar`, {})).body.error).toBe("accion_pendiente")
        expect((await second("POST", `${item.base}/${RUTA[OTRA[accion]]}/confirmar`, {})).body.error).toBe(
          "sin_accion_pendiente"
        )

        // Its requester cannot confirm it, nor can soporte.
        const alone = await first("POST", `${path}/confirmar`, {})
        expect(alone.status).toBe(403)
        expect(alone.body.error).toBe("cuatro_ojos")
        const reader = await soporte("POST", `${path}/confirmar`, {})
        expect(reader.status).toBe(403)
        expect(reader.body.error).toBe("rol_insuficiente")
        expect(await item.estado()).toEqual(before)

        // Another tesoreria operator applies exactly what was asked.
        const confirmed = await second("POST", `${path}/confirmar`, { nota: "revisado" })
        expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
        expect(await item.estado()).toBe(fuente.despues[accion])
        expect(await enCola(second, item)).toBeUndefined()
        expect((await second("POST", `${path}/confirmar`, {})).status).toBe(409)

        const rows = await auditoria(item)
        expect(rows.map((r) => [r.accion, r.actor])).toEqual([
          [`${fuente.auditoria[accion]}_solicitado`, first.email],
          [`${fuente.auditoria[accion]}_confirmado`, second.email]
        ])
        expect(rows[0]?.nota).toBe(BODY[accion].nota)
        expect(rows[0]?.despues.cuerpo).toEqual(BODY[accion])
        expect(rows[1]?.nota).toBe("revisado")
        expect(rows[1]?.despues.accion_pendiente).toMatchObject({ accion, solicitado_por: first.email })
      })

  for (const fuente of FUENTES)
    it(`${fuente.tipo}: below the threshold one operator marks it paid at once`, async () => {
      const item = await fuente.crear(UMBRAL - 0.01)
      const done = await first("POST", `${item.base}/marcar-pagada`, BODY.marcar_pagada)
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      expect(await item.estado()).toBe(fuente.despues.marcar_pagada)
      expect((await auditoria(item)).map((r) => [r.accion, r.actor])).toEqual([
        [fuente.auditoria.marcar_pagada, first.email]
      ])
    })

  it("a waiting action can be dropped (audited), and then asked again; the database refuses its requester as confirmer", async () => {
    const fuente = FUENTES.find((f) => f.tipo === "transaccion") as Fuente
    const item = await fuente.crear(UMBRAL * 3)
    const asked = await first("POST", `${item.base}/cerrar`, { nota: "me equivoqué de operación" })
    expect(asked.status).toBe(202)
    const id = asked.body.accion_pendiente.id as string
    await expect(
      db(
        "update acciones_pendientes set estado = 'confirmada', resuelto_por = solicitado_por where id = $1",
        [id]
      )
    ).rejects.toThrow(/check/)
    expect((await soporte("POST", `/admin/v1/operador/revision/acciones/${id}/anular`, {})).status).toBe(403)
    const dropped = await first("POST", `/admin/v1/operador/revision/acciones/${id}/anular`, {
      nota: "error mío"
    })
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200)
    expect(dropped.body).toMatchObject({
      id,
      estado: "anulada",
      objeto_tipo: "transaccion",
      objeto_id: item.id
    })
    expect((await first("POST", `/admin/v1/operador/revision/acciones/${id}/anular`, {})).status).toBe(409)
    expect((await enCola(second, item))?.accion_pendiente).toBeNull()
    expect((await second("POST", `${item.base}/cerrar/confirmar`, {})).body.error).toBe(
      "sin_accion_pendiente"
    )
    expect(await item.estado()).toBe("ERROR")
    const again = await second("POST", `${item.base}/marcar-pagada`, BODY.marcar_pagada)
    expect(again.status).toBe(202)
    expect((await first("POST", `${item.base}/marcar-pagada/confirmar`, {})).status).toBe(200)
    expect(await item.estado()).toBe("LIQUIDADA")
    expect((await auditoria(item)).map((r) => r.accion)).toEqual([
      "transaccion.cerrar_solicitado",
      "accion_pendiente.anular",
      "transaccion.marcar_liquidada_solicitado",
      "transaccion.marcar_liquidada_confirmado"
    ])
  })
})
